import { Type, type Static } from '@sinclair/typebox';
import { ModoLiberacao, ParcelaRepasse } from '../http/motorista';

/**
 * The driver's payout for counter-CT-e (aggregate `repasse`): one stream per driver group,
 * `repasse-<company_id>-<grupo>`, where `grupo` is `lote:<lote_id>:<cpf>` for a batch's documents of one driver and
 * `cte:<cte_id>` for a single counter-CT-e. Money in integer cents (ruling 10); instants as ISO 8601 UTC; due dates as
 * `AAAA-MM-DD` in Brasília.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

/** Where the installment rule came from (ruling 14): the batch's, the driver's own, or the single 100% default. */
export const OrigemRegraRepasse = Type.Union([Type.Literal('lote'), Type.Literal('motorista'), Type.Literal('padrao')], {
  description: "`lote`: the batch's `repasse.parcelas`; `motorista`: the driver's registered rule; `padrao`: 100% at position 1, dias 0",
});
export type OrigemRegraRepasse = Static<typeof OrigemRegraRepasse>;

export const RegraRepasse = Type.Object({
  origem: OrigemRegraRepasse,
  parcelas: Type.Array(ParcelaRepasse, { description: 'Ordered by posicao' }),
});
export type RegraRepasse = Static<typeof RegraRepasse>;

/** What released an installment: a driver-app report in automatic mode, or `liberar`. */
export const GatilhoLiberacao = Type.Union(
  [Type.Literal('bipagem'), Type.Literal('conclusao'), Type.Literal('prestacao_contas'), Type.Literal('manual')],
  {
    description:
      '`bipagem` (scan, position 1), `conclusao` (completion, 2), `prestacao_contas` (accountability, 3) in automatic mode; `manual` for `liberar`',
  },
);
export type GatilhoLiberacao = Static<typeof GatilhoLiberacao>;

const Grupo = {
  company_id: Type.String(),
  grupo: Type.String(),
  cte_id: Type.String(),
};

/** What an authorized counter-CT-e brings to its driver's group: the link, the value and the rule frozen at that moment. */
const DocumentoDados = {
  ...Grupo,
  chave: Type.String(),
  chave_original: Type.String(),
  documento_financeiro: Nullable(Type.String()),
  lote_id: Nullable(Type.String()),
  /** Order in the batch (the row, 0-based); 0 for a single counter-CT-e. Decides the document's bucket at the scan. */
  posicao: Type.Integer({ minimum: 0 }),
  motorista_cpf: Type.String(),
  valor_centavos: Type.Integer({ minimum: 1 }),
};

export const RepasseDocumentoRegistrado = Type.Object({
  ...DocumentoDados,
  regra: RegraRepasse,
  modo: ModoLiberacao,
  registrado_em: Type.String(),
});
export type RepasseDocumentoRegistrado = Static<typeof RepasseDocumentoRegistrado>;

/** The financial step could not be done for an authorized counter-CT-e (the batch row's `financeiro: failed`). */
export const RepasseRegistroFalhou = Type.Object({
  ...DocumentoDados,
  code: Type.String({ description: '`motorista_nao_encontrado`: the driver left the registry before the authorization' }),
  message: Type.String(),
  falhou_em: Type.String(),
});
export type RepasseRegistroFalhou = Static<typeof RepasseRegistroFalhou>;

export const ParcelaGerada = Type.Object({
  posicao: Type.Integer({ minimum: 1, maximum: 3 }),
  percentual: Type.Number({ description: "Share of this document's value: 100 when the whole document falls in one installment" }),
  valor_centavos: Type.Integer({ minimum: 0 }),
  dias: Type.Integer({ minimum: 0, maximum: 30 }),
});
export type ParcelaGerada = Static<typeof ParcelaGerada>;

/**
 * The scan (bipagem): the document's installments exist from here on. `documentos_no_grupo` and `ordem_no_grupo`
 * (1-based) are the group's live documents at that moment, which decided whole-document buckets or a split.
 */
export const RepasseParcelasGeradas = Type.Object({
  ...Grupo,
  bipado_em: Type.String(),
  documentos_no_grupo: Type.Integer({ minimum: 1 }),
  ordem_no_grupo: Type.Integer({ minimum: 1 }),
  parcelas: Type.Array(ParcelaGerada),
});
export type RepasseParcelasGeradas = Static<typeof RepasseParcelasGeradas>;

export const RepasseConclusaoRegistrada = Type.Object({ ...Grupo, concluido_em: Type.String() });
export type RepasseConclusaoRegistrada = Static<typeof RepasseConclusaoRegistrada>;

export const RepassePrestacaoContasRegistrada = Type.Object({ ...Grupo, prestado_contas_em: Type.String() });
export type RepassePrestacaoContasRegistrada = Static<typeof RepassePrestacaoContasRegistrada>;

export const RepasseParcelaLiberada = Type.Object({
  ...Grupo,
  posicao: Type.Integer({ minimum: 1, maximum: 3 }),
  gatilho: GatilhoLiberacao,
  liberada_em: Type.String(),
  vencimento: Type.String({ description: "AAAA-MM-DD: the release date in Brasília plus the installment's dias" }),
});
export type RepasseParcelaLiberada = Static<typeof RepasseParcelaLiberada>;

/** A payment order for a released installment; the payout processor settles it. */
export const RepassePagamentoSolicitado = Type.Object({
  ...Grupo,
  posicao: Type.Integer({ minimum: 1, maximum: 3 }),
  ordem_id: Type.String(),
  motorista_cpf: Type.String(),
  valor_centavos: Type.Integer({ minimum: 0 }),
  solicitado_em: Type.String(),
});
export type RepassePagamentoSolicitado = Static<typeof RepassePagamentoSolicitado>;

export const RepasseParcelaPaga = Type.Object({
  ...Grupo,
  /** The contractor's CT-e whose payout is now (partly) paid: ruling 8 refuses turning it into legs. */
  chave_original: Type.String(),
  posicao: Type.Integer({ minimum: 1, maximum: 3 }),
  ordem_id: Type.String(),
  valor_centavos: Type.Integer({ minimum: 0 }),
  paga_em: Type.String(),
});
export type RepasseParcelaPaga = Static<typeof RepasseParcelaPaga>;

/** An order whose money has left (settled, or handed to the bank rail): a cancellation does not take it back. */
export const PagamentoMantido = Type.Object({
  posicao: Type.Integer({ minimum: 1, maximum: 3 }),
  ordem_id: Type.String(),
  valor_centavos: Type.Integer({ minimum: 0 }),
  situacao: Type.Union([Type.Literal('paga'), Type.Literal('pagamento_enviado')]),
});
export type PagamentoMantido = Static<typeof PagamentoMantido>;

/**
 * The counter-CT-e was cancelled: the listed installments are cancelled (unpaid ones, and those whose order was
 * withdrawn in the same decision) and the document leaves the group. `parcelas_pagas` lists the installments whose
 * money had already left; events recorded before it existed lack it (nothing was said then).
 */
export const RepasseDocumentoCancelado = Type.Object({
  ...Grupo,
  cancelado_em: Type.String(),
  parcelas_canceladas: Type.Array(Type.Integer({ minimum: 1, maximum: 3 })),
  parcelas_pagas: Type.Optional(Type.Array(PagamentoMantido)),
  /** The authority's cancellation event (its `event_key`), when the cancellation came through this product. */
  event_key: Type.Optional(Type.String()),
});
export type RepasseDocumentoCancelado = Static<typeof RepasseDocumentoCancelado>;

/**
 * The counter-CT-e's cancellation was sent to the authority: until its verdict no order is recorded for the document,
 * and orders not yet handed to the bank rail are withdrawn with it (`repasse.pagamento_retirado`).
 */
export const RepasseCancelamentoSolicitado = Type.Object({ ...Grupo, event_key: Type.String(), solicitado_em: Type.String() });
export type RepasseCancelamentoSolicitado = Static<typeof RepasseCancelamentoSolicitado>;

/** The authority refused the cancellation: the document's payout moves again. */
export const RepasseCancelamentoRecusado = Type.Object({ ...Grupo, event_key: Type.String(), recusado_em: Type.String() });
export type RepasseCancelamentoRecusado = Static<typeof RepasseCancelamentoRecusado>;

/** A payment order taken back before it reached the bank rail: the installment is released again (or cancelled with the document). */
export const RepassePagamentoRetirado = Type.Object({
  ...Grupo,
  posicao: Type.Integer({ minimum: 1, maximum: 3 }),
  ordem_id: Type.String(),
  valor_centavos: Type.Integer({ minimum: 0 }),
  motivo: Type.Union([Type.Literal('cancelamento_solicitado'), Type.Literal('documento_cancelado')]),
  retirado_em: Type.String(),
});
export type RepassePagamentoRetirado = Static<typeof RepassePagamentoRetirado>;

/**
 * The payout processor hands the order to the bank rail: decided on the group's stream, so a cancellation decided
 * first withdraws the order instead, and one decided later finds its money gone.
 */
export const RepassePagamentoEnviado = Type.Object({
  ...Grupo,
  posicao: Type.Integer({ minimum: 1, maximum: 3 }),
  ordem_id: Type.String(),
  enviado_em: Type.String(),
});
export type RepassePagamentoEnviado = Static<typeof RepassePagamentoEnviado>;
