import { Type, type Static } from '@sinclair/typebox';
import { ModoLiberacao } from './motorista';
import { GatilhoLiberacao, RegraRepasse } from '../events/repasse';

/**
 * The installment area (`/carriers/parcelas-repasse`, scope `operacao`): the driver's payout for each counter-CT-e,
 * its installments, their release and payment orders. Money as decimals with two places (ruling 10).
 */
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
const Money = (description: string) => Type.Number({ minimum: 0, multipleOf: 0.01, description });
const Instant = (description: string) => nullable(Type.String({ format: 'date-time', description }));

export const DOCUMENTO_DESCRIPTION =
  "The installment document: the counter-CT-e's `counter_cte_id` (UUID), a leg's `documento_financeiro` " +
  '(`ROUTE:...`), or the 44-character access key of the authorized counter-CT-e';

const Documento = Type.String({ minLength: 1, maxLength: 200, description: DOCUMENTO_DESCRIPTION });
const Posicao = Type.Integer({ minimum: 1, maximum: 3, description: 'Installment position, 1 to 3' });

export const DocumentoRepasseParam = Type.Object({ documento: Documento });
export type DocumentoRepasseParam = Static<typeof DocumentoRepasseParam>;

/** `POST .../liberar` and `POST .../pagar`. */
export const ParcelaRepasseAcao = Type.Object(
  { documento: Documento, posicao: Posicao },
  { additionalProperties: false, $id: 'ParcelaRepasseAcao', description: 'One installment: the document and the position' },
);
export type ParcelaRepasseAcao = Static<typeof ParcelaRepasseAcao>;

/** `POST .../liberar-por-mdfe` and `POST .../pagar-por-mdfe`. */
export const ParcelaRepasseMdfeAcao = Type.Object(
  {
    mdfe_id: Type.String({ minLength: 1, maxLength: 64, description: "The MDF-e's UUID (`mdfe_uuid`), an MDF-e of the company" }),
    posicao: Posicao,
  },
  { additionalProperties: false, $id: 'ParcelaRepasseMdfeAcao', description: 'The same act on every CT-e of a manifest' },
);
export type ParcelaRepasseMdfeAcao = Static<typeof ParcelaRepasseMdfeAcao>;

export const SituacaoParcela = Type.Union(
  ['pendente', 'liberada', 'pagamento_solicitado', 'paga', 'cancelada'].map((v) => Type.Literal(v)),
  {
    description:
      '`pendente` (exists, not released), `liberada`, `pagamento_solicitado` (ordered, not settled), `paga`, `cancelada` (counter-CT-e cancelled before payment)',
  },
);
export type SituacaoParcela = 'pendente' | 'liberada' | 'pagamento_solicitado' | 'paga' | 'cancelada';

export const ParcelaRepasseView = Type.Object({
  posicao: Posicao,
  percentual: Type.Number({
    description:
      "Share of this document's value: 100 when the whole document falls in this installment (group of N ≥ installments), the rule's percentage when the document was split",
  }),
  valor: Money('Amount of the installment; the installments of a document sum exactly its value'),
  dias: Type.Integer({ minimum: 0, maximum: 30, description: 'Days from the release to the due date' }),
  situacao: SituacaoParcela,
  liberada_por: nullable(GatilhoLiberacao),
  liberada_em: Instant('When it was released'),
  vencimento: nullable(Type.String({ format: 'date', description: 'Due date (Brasília): release date plus `dias`' })),
  ordem_pagamento_id: nullable(Type.String({ description: 'The payment order, once `pagar` was called' })),
  pagamento_solicitado_em: Instant('When payment was ordered'),
  paga_em: Instant('When the payment settled'),
  cancelada_em: Instant("When the counter-CT-e's cancellation cancelled it"),
});
export type ParcelaRepasseView = Static<typeof ParcelaRepasseView>;

export const DocumentoRepasse = Type.Object(
  {
    documento: Type.String({ description: 'The identifier the request named the document by' }),
    counter_cte_id: Type.String(),
    chave: Type.String({ description: 'Access key of the counter-CT-e' }),
    chave_original: Type.String({ description: "Access key of the contractor's CT-e" }),
    documento_financeiro: nullable(Type.String({ description: "The leg's `ROUTE:...` document; null in the 1:1 design" })),
    lote_id: nullable(Type.String({ description: 'The batch; null for a single counter-CT-e' })),
    motorista_cpf: Type.String(),
    valor: Money("The driver's payout for this counter-CT-e"),
    grupo: Type.String({
      description: "The driver group: `lote:<lote_id>:<cpf>` (a batch's documents of one driver) or `cte:<counter_cte_id>`",
    }),
    posicao_no_grupo: Type.Integer({
      description: 'Order in the batch (row), which decides the bucket at the scan; 0 for a single counter-CT-e',
    }),
    financeiro: Type.Union([Type.Literal('ok'), Type.Literal('failed')], {
      description:
        '`failed` when the financial step could not be done after the authorization (`erro_financeiro` says why); such a document has no rule, mode nor installments',
    }),
    erro_financeiro: nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    regra: nullable(RegraRepasse),
    modo: nullable(ModoLiberacao),
    bipado_em: Instant('Scan (bipagem) reported by the driver app: the installments exist from here on'),
    concluido_em: Instant('Completion reported'),
    prestado_contas_em: Instant('Accountability (prestação de contas) reported'),
    cancelado: Type.Boolean({ description: 'The counter-CT-e was cancelled: unpaid installments cancelled, document out of its group' }),
    cancelado_em: Instant('When the cancellation was registered'),
    parcelas: Type.Array(ParcelaRepasseView, { description: 'Empty before the scan' }),
  },
  { $id: 'DocumentoRepasse', description: "The driver's payout of one counter-CT-e and its installments" },
);
export type DocumentoRepasse = Static<typeof DocumentoRepasse>;

export const PagamentoRepasse = Type.Object(
  {
    ordem_id: Type.String(),
    counter_cte_id: Type.String(),
    chave: Type.String(),
    documento_financeiro: nullable(Type.String()),
    posicao: Posicao,
    motorista_cpf: Type.String(),
    valor: Money("Amount ordered: the installment's value"),
    situacao: Type.Union([Type.Literal('pagamento_solicitado'), Type.Literal('paga')], {
      description: 'The installment when this answer was written; the payout processor settles the order (`paga`)',
    }),
    solicitado_em: Type.String({ format: 'date-time' }),
    paga_em: Instant('When the order settled'),
    consulta: Type.String({ description: 'Path to read the installments again' }),
  },
  { $id: 'PagamentoRepasse', description: 'A payment order of one installment' },
);
export type PagamentoRepasse = Static<typeof PagamentoRepasse>;

export const ResultadoMdfeRepasse = Type.Object({
  cte_id: Type.String(),
  chave: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('ignorado'), Type.Literal('erro')], {
    description:
      '`ok`: done; `ignorado`: nothing to act on (`motivo`); `erro`: the act was refused (`error`, the code the single form answers)',
  }),
  motivo: Type.Optional(
    Type.Object({
      code: Type.String({
        description: '`sem_repasse`, `motorista_fora_do_mdfe`, `documento_cancelado`, `parcelas_nao_geradas` or `parcela_nao_encontrada`',
      }),
      message: Type.String(),
    }),
  ),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  ordem_id: Type.Optional(Type.String({ description: '`pagar-por-mdfe`, status `ok`: the payment order' })),
});
export type ResultadoMdfeRepasse = Static<typeof ResultadoMdfeRepasse>;

export const ResultadoMdfeRepasseLote = Type.Object(
  {
    mdfe_id: Type.String(),
    posicao: Posicao,
    resultados: Type.Array(ResultadoMdfeRepasse, { description: "One per CT-e of the MDF-e, in the manifest's order" }),
  },
  { $id: 'ResultadoMdfeRepasseLote' },
);
export type ResultadoMdfeRepasseLote = Static<typeof ResultadoMdfeRepasseLote>;

export const REPASSE_SCHEMAS = [ParcelaRepasseAcao, ParcelaRepasseMdfeAcao, DocumentoRepasse, PagamentoRepasse, ResultadoMdfeRepasseLote];
