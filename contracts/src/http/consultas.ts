import { Type, type Static } from '@sinclair/typebox';

/**
 * Regulator queries (`/consultas/*`, scope `consultas`): the carrier's RNTRC registration and its fleet at the
 * road-transport regulator (ANTT). Simulated in sandbox (spec section 1, sentinels in section 4); production answers
 * 503 `provedor_indisponivel` while no provider is contracted (ruling 7). Query parameters are ruling 24's.
 */

export const TipoDocumento = Type.Union([Type.Literal('CPF'), Type.Literal('CNPJ')], {
  description: '`CPF` (11 digits, a person: TAC) or `CNPJ` (14 characters, a company: ETC or CTC)',
});
export type TipoDocumento = Static<typeof TipoDocumento>;

/** Present only on simulated answers; its absence means a real verification (spec section 2). */
export const VerificacaoSimulada = Type.Literal('simulada', {
  description: 'Present only when the answer was simulated (sandbox); absent means a real verification at the regulator',
});
export type VerificacaoSimulada = Static<typeof VerificacaoSimulada>;

const Documento = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'CPF (11 digits) or CNPJ (14 characters, alphanumeric allowed), with or without punctuation; check digits validated',
});

export const TipoTransportador = Type.Union([Type.Literal('ETC'), Type.Literal('TAC'), Type.Literal('CTC')], {
  description: 'ETC empresa de transporte, TAC transportador autônomo, CTC cooperativa de transporte',
});
export type TipoTransportador = Static<typeof TipoTransportador>;

export const SituacaoRntrcValor = Type.Union([Type.Literal('ativo'), Type.Literal('inativo')], {
  description: 'Registration status at the regulator',
});
export type SituacaoRntrcValor = Static<typeof SituacaoRntrcValor>;

/** `GET /consultas/rntrc?documento=&rntrc=` (ruling 24). */
export const ConsultaRntrcQuery = Type.Object({
  documento: Documento,
  rntrc: Type.String({ minLength: 1, maxLength: 20, description: 'RNTRC number, 8 or 9 digits' }),
});
export type ConsultaRntrcQuery = Static<typeof ConsultaRntrcQuery>;

export const SituacaoRntrc = Type.Object(
  {
    documento: Type.String({ description: 'The document queried, unpunctuated' }),
    tipo_documento: TipoDocumento,
    rntrc: Type.String({ description: 'The RNTRC queried' }),
    ativo: Type.Boolean({ description: 'true when the registration is active' }),
    situacao: SituacaoRntrcValor,
    tipo: TipoTransportador,
    equiparado_tac: Type.Boolean({ description: 'The registration is equated to TAC (equiparado a TAC)' }),
    razao_social: Type.String({ description: "Name of the registration's holder" }),
    verificacao: Type.Optional(VerificacaoSimulada),
  },
  { $id: 'SituacaoRntrc', description: 'The RNTRC registration at the regulator (spec section 2)' },
);
export type SituacaoRntrc = Static<typeof SituacaoRntrc>;

/**
 * `GET /consultas/frota?documento=&placas=A,B` (ruling 24): up to 50 plates, comma-separated (or the parameter repeated).
 * An array to the document (`style: form, explode: false` is what a comma list is, see `openapi.ts`), so that generated
 * clients take a list; one `placas=A,B` arrives as `['A,B']` (Ajv's `coerceTypes: 'array'`) and the reader splits it.
 */
export const ConsultaFrotaQuery = Type.Object({
  documento: Documento,
  placas: Type.Array(Type.String({ maxLength: 2000 }), {
    minItems: 1,
    maxItems: 1000,
    description: 'Plates, comma-separated (`ABC1234,ABC1D23`), 1 to 50, old or Mercosur format, case and hyphen ignored, no repeats',
  }),
});
export type ConsultaFrotaQuery = Static<typeof ConsultaFrotaQuery>;

export const ItemFrota = Type.Object(
  {
    placa: Type.String({ description: 'The plate, upper case without hyphen' }),
    pertence: Type.Union([Type.Boolean(), Type.Null()], {
      description: "true: in the carrier's fleet at the regulator; false: not in it; null: the regulator could not tell",
    }),
    verificacao: Type.Optional(VerificacaoSimulada),
  },
  { description: 'One plate of the fleet query' },
);
export type ItemFrota = Static<typeof ItemFrota>;

export const ConsultaFrota = Type.Object(
  {
    documento: Type.String({ description: 'The document queried, unpunctuated' }),
    tipo_documento: TipoDocumento,
    placas: Type.Array(ItemFrota, { description: 'One item per plate queried, in the order given' }),
  },
  { $id: 'ConsultaFrota', description: "Plates in the carrier's fleet at the regulator (ruling 24)" },
);
export type ConsultaFrota = Static<typeof ConsultaFrota>;

export const CONSULTA_SCHEMAS = [SituacaoRntrc, ConsultaFrota];
