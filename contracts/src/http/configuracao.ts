import { Type, type Static } from '@sinclair/typebox';
import { Uf } from './common';

export const RegimeTributario = Type.Integer({
  minimum: 1,
  maximum: 4,
  description: 'CRT: 1 Simples Nacional, 2 Simples Nacional com excesso de sublimite, 3 Regime Normal, 4 MEI',
});

/** A route end or address city: `{ municipio, uf, codigo_ibge? }`, checked against the IBGE table (ruling 19). */
export const Municipio = Type.String({ minLength: 1, maxLength: 60 });

export const Endereco = Type.Object(
  {
    logradouro: Type.String({ minLength: 1, maxLength: 255 }),
    numero: Type.String({ minLength: 1, maxLength: 60 }),
    complemento: Type.Optional(Type.Union([Type.String({ maxLength: 60 }), Type.Null()])),
    bairro: Type.String({ minLength: 1, maxLength: 60 }),
    municipio: Municipio,
    uf: Uf,
    codigo_ibge: Type.Optional(Type.String({ pattern: '^[0-9]{7}$' })),
    cep: Type.String({ pattern: '^[0-9]{8}$', description: 'CEP, 8 digits without punctuation' }),
  },
  { additionalProperties: false },
);
export type Endereco = Static<typeof Endereco>;

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

export const InscricaoEstadual = Type.String({
  pattern: '^(ISENTO|[0-9]{2,14})$',
  description: 'State registration, digits only, or ISENTO',
});
export const Rntrc = Type.String({ pattern: '^[0-9]{8}$', description: 'RNTRC, 8 digits' });
export const Serie = Type.Integer({ minimum: 0, maximum: 999 });

/**
 * The carrier's pricing rule for counter-CT-e: when `POST /fiscal/cte/contra` omits `valor_frete`, the suggested
 * value is this share of the contractor's vTPrest, rounded half up to the cent.
 */
export const PercentualFreteContraCte = Type.Number({
  // Not `exclusiveMinimum: 0`: `multipleOf` compares with a tolerance, so 1e-9 would pass and be stored as 0.00.
  minimum: 0.01,
  maximum: 100,
  multipleOf: 0.01,
  description:
    "Pricing rule: percentage of the contractor's freight (vTPrest) suggested as the counter-CT-e's value when `valor_frete` is omitted",
});

/** `PUT /fiscal/configuracao`: only supplied fields change; null clears a field. */
export const FiscalConfigurationUpdate = Type.Object(
  {
    inscricao_estadual: Type.Optional(nullable(InscricaoEstadual)),
    regime_tributario: Type.Optional(nullable(RegimeTributario)),
    rntrc: Type.Optional(nullable(Rntrc)),
    serie_cte: Type.Optional(nullable(Serie)),
    serie_mdfe: Type.Optional(nullable(Serie)),
    endereco: Type.Optional(nullable(Endereco)),
    percentual_frete_contra_cte: Type.Optional(nullable(PercentualFreteContraCte)),
  },
  { additionalProperties: false, $id: 'FiscalConfigurationUpdate' },
);
export type FiscalConfigurationUpdate = Static<typeof FiscalConfigurationUpdate>;

export const FiscalConfiguration = Type.Object(
  {
    cnpj: Type.String(),
    razao_social: Type.String(),
    inscricao_estadual: nullable(Type.String()),
    regime_tributario: nullable(Type.Integer()),
    rntrc: nullable(Type.String()),
    serie_cte: nullable(Type.Integer()),
    serie_mdfe: nullable(Type.Integer()),
    endereco: nullable(Endereco),
    percentual_frete_contra_cte: nullable(PercentualFreteContraCte),
    completa: Type.Boolean({ description: 'True when every field a CT-e issue needs is filled' }),
    pendencias: Type.Array(Type.String(), { description: 'Fields still missing for issuing' }),
    atualizado_em: nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'FiscalConfiguration' },
);
export type FiscalConfiguration = Static<typeof FiscalConfiguration>;
