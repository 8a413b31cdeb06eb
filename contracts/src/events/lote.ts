import { Type, type Static } from '@sinclair/typebox';
import { ParcelaRepasse } from '../http/motorista';
import { ModoSubcontratacao } from './contra-cte';
import { LocalPrestacao } from './cte-lido';

/**
 * A counter-CT-e batch (aggregate `lote`, stream `lote-<batch_id>`). The batch lives on the subcontractor's account;
 * its plan is fixed at creation (every row resolved: precedence, cents, driver, plate), so processing it again later
 * gives the same counter-CT-e whatever the registry or the request looked like by then.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

/** One row of the plan: a key (1:1) or one leg of a key. */
export const LinhaPlanejada = Type.Object({
  /** Position in the batch (0-based): the order of processing and of the payout buckets. */
  linha: Type.Integer({ minimum: 0 }),
  chave: Type.String(),
  perna: Nullable(Type.Integer({ minimum: 0 })),
  tipo_servico: Type.Integer({ minimum: 1, maximum: 3 }),
  /** Declared ends, as the IBGE table names them; null inherits the contractor's. */
  origem: Nullable(LocalPrestacao),
  destino: Nullable(LocalPrestacao),
  valor_centavos: Type.Integer({ minimum: 1 }),
  motorista_cpf: Type.String(),
  placa: Type.String(),
});
export type LinhaPlanejada = Static<typeof LinhaPlanejada>;

export const LoteCriado = Type.Object({
  batch_id: Type.String(),
  /** The subcontractor: the batch's owner, whose certificate, numbering, inbox and registry the rows use. */
  company_id: Type.String(),
  /** The contractor that triggered it under an emission grant; null when the subcontractor did. */
  solicitante_company_id: Nullable(Type.String()),
  ambiente: Type.Union([Type.Literal('producao'), Type.Literal('homologacao')]),
  modo: ModoSubcontratacao,
  parcelas: Nullable(Type.Array(ParcelaRepasse)),
  linhas: Type.Array(LinhaPlanejada),
});
export type LoteCriado = Static<typeof LoteCriado>;

/** What processing a row gave: a counter-CT-e on its way (`pending`), an existing one (`duplicated`), or a refusal. */
export const LinhaProcessadaStatus = Type.Union([Type.Literal('pending'), Type.Literal('duplicated'), Type.Literal('failed')]);
export type LinhaProcessadaStatus = Static<typeof LinhaProcessadaStatus>;

export const LoteLinhaProcessada = Type.Object({
  batch_id: Type.String(),
  company_id: Type.String(),
  linha: Type.Integer({ minimum: 0 }),
  chave: Type.String(),
  perna: Nullable(Type.Integer({ minimum: 0 })),
  status: LinhaProcessadaStatus,
  tipo_servico: Type.Integer({ minimum: 1, maximum: 3 }),
  counter_cte_id: Nullable(Type.String()),
  documento_financeiro: Nullable(Type.String()),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
});
export type LoteLinhaProcessada = Static<typeof LoteLinhaProcessada>;

/**
 * The authority's outcome for a row's own counter-CT-e (`pending` before it), recorded on the batch so that the batch
 * alone tells when it ended. Fed from `cte.autorizado` (`emitted`) and `cte.rejeitado`/`cte.denegado` (`failed`
 * with `cte_rejeitado`); the first outcome stands.
 */
export const LoteLinhaEmitida = Type.Object({
  batch_id: Type.String(),
  company_id: Type.String(),
  linha: Type.Integer({ minimum: 0 }),
  counter_cte_id: Type.String(),
});
export type LoteLinhaEmitida = Static<typeof LoteLinhaEmitida>;

export const LoteLinhaRejeitada = Type.Object({
  batch_id: Type.String(),
  company_id: Type.String(),
  linha: Type.Integer({ minimum: 0 }),
  counter_cte_id: Type.String(),
  error: Type.Object({ code: Type.String(), message: Type.String() }),
});
export type LoteLinhaRejeitada = Static<typeof LoteLinhaRejeitada>;

/**
 * The financial step of a row's authorized counter-CT-e (the report's `financeiro`): the driver payout was registered
 * (`ok`) or could not be (`failed`). Fed from `repasse.documento_registrado`/`repasse.registro_falhou`.
 */
export const LoteFinanceiroRegistrado = Type.Object({
  batch_id: Type.String(),
  company_id: Type.String(),
  linha: Type.Integer({ minimum: 0 }),
  counter_cte_id: Type.String(),
  financeiro: Type.Union([Type.Literal('ok'), Type.Literal('failed')]),
});
export type LoteFinanceiroRegistrado = Static<typeof LoteFinanceiroRegistrado>;

/** How a batch ended, counted by its rows' final states: its end's record and its requester's share it. */
export const CONTAGEM_DO_LOTE = {
  status: Type.Union([Type.Literal('done'), Type.Literal('failed')]),
  total_linhas: Type.Integer({ minimum: 1 }),
  emitidas: Type.Integer({ minimum: 0 }),
  duplicadas: Type.Integer({ minimum: 0 }),
  falhas: Type.Integer({ minimum: 0 }),
};

/**
 * The batch ended: every row reached its final state (failed or duplicated at processing, refused by the authority,
 * or emitted with its financial step decided). `done` when any row was emitted or duplicated, `failed` when none
 * was. Once per batch; the counts are the rows' final states.
 */
export const LoteConcluido = Type.Object({
  batch_id: Type.String(),
  company_id: Type.String(),
  ...CONTAGEM_DO_LOTE,
});
export type LoteConcluido = Static<typeof LoteConcluido>;

/**
 * A creation recorded in another company's chain, carried into the batch owner's. Until issue 26 a batch a contractor
 * requested under a grant was created with the contractor's metadata, so its `lote.criado` sits in the contractor's
 * hash chain; the chain covers events as recorded and cannot move it, so the owner's chain records it here: the
 * original event's id, time and hash (its place in the other chain) and its data as recorded. Once per batch.
 */
export const LoteCriacaoTranscrita = Type.Object({
  batch_id: Type.String(),
  /** The batch's owner, in whose chain this is recorded. */
  company_id: Type.String(),
  evento: Type.Object({
    id: Type.String(),
    recorded_at: Type.String({ format: 'date-time' }),
    hash: Type.String(),
  }),
  criado: LoteCriado,
});
export type LoteCriacaoTranscrita = Static<typeof LoteCriacaoTranscrita>;
