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
