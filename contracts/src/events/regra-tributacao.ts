import { Type, type Static } from '@sinclair/typebox';

/**
 * A tax rule as the registry holds it. Rates and the base reduction are integer hundredths of a percentage point
 * (`1200` is 12.00%), in the spirit of ruling 10: no binary fractions in the log.
 */
export const RegraTributacaoDados = Type.Object({
  uf_origem: Type.String(),
  uf_destino: Type.String(),
  tp_serv: Type.Union([Type.Integer(), Type.Null()], { description: 'null: the general rule of the UF pair' }),
  cfop: Type.Union([Type.String(), Type.Null()]),
  icms: Type.Object({
    cst: Type.String(),
    aliquota_centesimos: Type.Integer(),
    reducao_base_centesimos: Type.Union([Type.Integer(), Type.Null()]),
  }),
  ibs_cbs: Type.Union([
    Type.Object({
      cst: Type.String(),
      cclass_trib: Type.String(),
      aliquota_ibs_uf_centesimos: Type.Integer(),
      aliquota_ibs_mun_centesimos: Type.Integer(),
      aliquota_cbs_centesimos: Type.Integer(),
      /** emit/ISUFEmit of the CT-e built with this rule (NT 2026.002): the emitter's SUFRAMA registration, for CBS at 0. */
      inscricao_suframa: Type.Optional(Type.String()),
    }),
    Type.Null(),
  ]),
});
export type RegraTributacaoDados = Static<typeof RegraTributacaoDados>;

/** A rule registered; `regra_id` is the company's next integer (ids are never reused). */
export const RegraTributacaoCriada = Type.Object({
  company_id: Type.String(),
  regra_id: Type.Integer({ minimum: 1 }),
  regra: RegraTributacaoDados,
});
export type RegraTributacaoCriada = Static<typeof RegraTributacaoCriada>;

/** A rule replaced as a whole (PUT): `regra` is the complete new rule. */
export const RegraTributacaoAlterada = Type.Object({
  company_id: Type.String(),
  regra_id: Type.Integer({ minimum: 1 }),
  regra: RegraTributacaoDados,
});
export type RegraTributacaoAlterada = Static<typeof RegraTributacaoAlterada>;

export const RegraTributacaoRemovida = Type.Object({
  company_id: Type.String(),
  regra_id: Type.Integer({ minimum: 1 }),
});
export type RegraTributacaoRemovida = Static<typeof RegraTributacaoRemovida>;
