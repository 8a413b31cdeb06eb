import { Type, type Static } from '@sinclair/typebox';
import { CteRascunho } from '../http/cte-rascunho';
import { ParcelaRepasse } from '../http/motorista';

/**
 * What ties a counter-CT-e to the contractor's CT-e, to its batch row and to the driver's payout. It travels in
 * `cte.contra_cte_criado`, so the projectors, the batch report and the payout processor read it from the CT-e's
 * own history instead of re-deriving it.
 */
export const ModoSubcontratacao = Type.Union([Type.Literal('1a1'), Type.Literal('pernas')], {
  description: '`1a1`: one full counter-CT-e per contractor CT-e; `pernas`: one counter-CT-e per leg',
});
export type ModoSubcontratacao = Static<typeof ModoSubcontratacao>;

export const ContraCteVinculo = Type.Object({
  /** The contractor's CT-e (in the subcontractor's inbox), referenced in docAnt. */
  chave_original: Type.String(),
  contratante_cnpj: Type.String(),
  modo: ModoSubcontratacao,
  tipo_servico: Type.Integer({ minimum: 1, maximum: 3 }),
  /** IBGE codes of the service's start and end as issued (inherited or declared). */
  inicio_ibge: Type.String(),
  fim_ibge: Type.String(),
  /** The batch and its row (0-based), or null for `POST /fiscal/cte/contra`. */
  lote_id: Type.Union([Type.Null(), Type.String()]),
  linha: Type.Union([Type.Null(), Type.Integer({ minimum: 0 })]),
  /** Leg index within the key (0-based) and its financial document `ROUTE:...`; null in the 1:1 design. */
  perna: Type.Union([Type.Null(), Type.Integer({ minimum: 0 })]),
  documento_financeiro: Type.Union([Type.Null(), Type.String()]),
  motorista_cpf: Type.String(),
  placa: Type.String(),
  /** The counter-CT-e's value (vTPrest = vRec) and the driver's payout for it, in cents. */
  valor_centavos: Type.Integer({ minimum: 1 }),
  /** The batch's `repasse.parcelas`, when it gave one (it overrides the driver's rule). */
  parcelas: Type.Union([Type.Null(), Type.Array(ParcelaRepasse)]),
  /** The contractor that triggered the batch under an emission grant, or null when the subcontractor did. */
  solicitante_company_id: Type.Union([Type.Null(), Type.String()]),
});
export type ContraCteVinculo = Static<typeof ContraCteVinculo>;

/** A counter-CT-e created from the contractor's CT-e: a draft of the subcontractor's own CT-e, plus its link. */
export const CteContraCteCriado = Type.Object({
  cte_id: Type.String(),
  company_id: Type.String(),
  ambiente: Type.Union([Type.Literal('producao'), Type.Literal('homologacao')]),
  /** What the contractor's CT-e gives, which may lack what CT-e 4.00 makes optional. */
  dados: CteRascunho,
  vinculo: ContraCteVinculo,
});
export type CteContraCteCriado = Static<typeof CteContraCteCriado>;
