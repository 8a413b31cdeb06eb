import { Type, type Static } from '@sinclair/typebox';

/**
 * The mandatory toll pass (Vale-Pedágio obrigatório, VPO; Lei 10.209/2001, Res. ANTT 6.024/2023), aggregate
 * `vale_pedagio`: one stream per toll pass, `vale-pedagio-<company_id>-<vale_pedagio_id>`. It is bought from an
 * authorised supplier (FVPO) for the whole route, paid at once from the operational account (the account's ledger
 * carries the money: `conta_operacional.*`), and may be cancelled strictly within 3 hours of issue and before the
 * first toll plaza passage. Money in integer cents (ruling 10); instants as ISO 8601 UTC.
 */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

/**
 * MDF-e `valePed/categCombVeic` (mdfeModalRodoviario_v3.00.xsd): the commercial vehicle's axle count, which decides
 * the tariff (the ANTT rule charges a commercial vehicle the base tariff once per axle).
 */
export const CATEGORIAS_VEICULARES = {
  '02': 2,
  '04': 3,
  '06': 4,
  '07': 5,
  '08': 6,
  '10': 7,
  '11': 8,
  '12': 9,
  '13': 10,
  '14': 11,
} as const;
export type CategoriaVeicular = keyof typeof CATEGORIAS_VEICULARES;

export const CategoriaVeicular = Type.Union(
  (Object.keys(CATEGORIAS_VEICULARES) as CategoriaVeicular[]).map((c) => Type.Literal(c)),
  {
    description:
      'Vehicle combination category, as MDF-e `categCombVeic`: `02` commercial vehicle with 2 axles, `04` 3 axles, `06` 4, ' +
      '`07` 5, `08` 6, `10` 7, `11` 8, `12` 9, `13` 10, `14` more than 10 axles (charged as 11)',
  },
);

/** MDF-e `valePed/disp/tpValePed`: `TAG` is 01 (an electronic tag), `placa` is 04 (plate reading). */
export const TipoValePedagio = Type.Union([Type.Literal('TAG'), Type.Literal('placa')], {
  description: 'How the plazas recognise the vehicle: `TAG` (MDF-e tpValePed 01, an electronic tag) or `placa` (04, plate reading)',
});
export type TipoValePedagio = Static<typeof TipoValePedagio>;

/** A route end as the IBGE table names it (ruling 19). */
export const LocalValePedagio = Type.Object({
  codigo_ibge: Type.String(),
  municipio: Type.String(),
  uf: Type.String(),
});
export type LocalValePedagio = Static<typeof LocalValePedagio>;

/** A toll plaza on the route, with the tariff for the vehicle's category. */
export const PracaValePedagio = Type.Object({
  ordem: Type.Integer({ minimum: 1, description: 'Order of passage, from the origin' }),
  codigo: Type.String({ description: "The supplier's code of the plaza" }),
  nome: Type.String(),
  rodovia: Type.String({ description: 'Highway, e.g. `BR-116`' }),
  km: Type.Number({ description: 'Kilometre mark on the highway' }),
  uf: Type.String(),
  concessionaria: Type.String({ description: 'Concessionaire that runs the plaza' }),
  tarifa_centavos: Type.Integer({ minimum: 0, description: 'Tariff of the category at this plaza' }),
});
export type PracaValePedagio = Static<typeof PracaValePedagio>;

export const FornecedorValePedagio = Type.Object({
  cnpj: Type.String({ description: 'MDF-e `CNPJForn`: the authorised supplier (FVPO)' }),
  nome: Type.String(),
  simulado: Type.Boolean({ description: "True for the sandbox's simulated supplier: no regulatory effect" }),
});
export type FornecedorValePedagio = Static<typeof FornecedorValePedagio>;

/** Bought and paid: the supplier's purchase number (IDVPO) and everything the MDF-e and the receipt need. */
export const ValePedagioEmitido = Type.Object({
  company_id: Type.String(),
  vale_pedagio_id: Type.String(),
  numero: Type.String({ description: "MDF-e `nCompra`: the supplier's purchase number (IDVPO), 1 to 20 digits" }),
  referencia_externa: Nullable(Type.String()),
  origem: LocalValePedagio,
  destino: LocalValePedagio,
  categoria: CategoriaVeicular,
  eixos: Type.Integer({ minimum: 2 }),
  placa: Type.String(),
  tipo: TipoValePedagio,
  motorista: Nullable(Type.Object({ cpf: Type.String(), nome: Nullable(Type.String()) })),
  cte: Nullable(Type.String()),
  mdfe: Nullable(Type.String()),
  fornecedor: FornecedorValePedagio,
  pagador_cnpj: Type.String({ description: 'MDF-e `CNPJPg`: the company that paid' }),
  distancia_km: Type.Integer({ minimum: 0 }),
  pracas: Type.Array(PracaValePedagio, { minItems: 1 }),
  valor_pedagio_centavos: Type.Integer({ minimum: 0, description: "Σ of the plazas' tariffs" }),
  taxa_centavos: Type.Integer({ minimum: 0, description: 'The service fee' }),
  valor_total_centavos: Type.Integer({ minimum: 1, description: 'Toll + fee: what the account was debited' }),
  emitido_em: Type.String(),
  cancelavel_ate: Type.String({ description: 'emitido_em + 3 h: a cancellation must come strictly before this instant' }),
});
export type ValePedagioEmitido = Static<typeof ValePedagioEmitido>;

/** The supplier reported the vehicle through a plaza of the toll pass (in the sandbox: simulated on request). */
export const ValePedagioPassagemRegistrada = Type.Object({
  company_id: Type.String(),
  vale_pedagio_id: Type.String(),
  praca_codigo: Type.String(),
  praca_ordem: Type.Integer({ minimum: 1 }),
  passou_em: Type.String(),
});
export type ValePedagioPassagemRegistrada = Static<typeof ValePedagioPassagemRegistrada>;

/** Cancelled within the regulatory window; the account's refund (`conta_operacional.estorno_registrado`) follows. */
export const ValePedagioCancelado = Type.Object({
  company_id: Type.String(),
  vale_pedagio_id: Type.String(),
  cancelado_em: Type.String(),
});
export type ValePedagioCancelado = Static<typeof ValePedagioCancelado>;
