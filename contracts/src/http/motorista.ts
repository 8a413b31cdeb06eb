import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, PageQuery } from './common';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

export const TipoChavePix = Type.Union(
  [Type.Literal('cpf'), Type.Literal('cnpj'), Type.Literal('email'), Type.Literal('telefone'), Type.Literal('aleatoria')],
  { description: 'PIX key type' },
);
export type TipoChavePix = Static<typeof TipoChavePix>;

/** A PIX key; `valor` is validated per `tipo` (CPF/CNPJ check digits, e-mail shape, `+55` and 10–11 digits, UUID). */
export const ChavePix = Type.Object(
  {
    tipo: TipoChavePix,
    valor: Type.String({ minLength: 1, maxLength: 77 }),
  },
  { additionalProperties: false, description: 'PIX key; stored normalized (digits only, lower-case e-mail and UUID, phone as +55…)' },
);
export type ChavePix = Static<typeof ChavePix>;

/** A `repasse.parcelas` item (ruling 21). */
export const ParcelaRepasse = Type.Object(
  {
    posicao: Type.Integer({ minimum: 1, maximum: 3, description: 'Installment position, 1 to 3, unique and consecutive from 1' }),
    percentual: Type.Number({
      exclusiveMinimum: 0,
      maximum: 100,
      description: 'Share of the payout, up to two decimals; the items sum exactly 100',
    }),
    dias: Type.Integer({ minimum: 0, maximum: 30, description: 'Days after the release' }),
  },
  { additionalProperties: false },
);
export type ParcelaRepasse = Static<typeof ParcelaRepasse>;

export const ModoLiberacao = Type.Union([Type.Literal('automatico'), Type.Literal('manual')], {
  description: '`automatico`: scan, completion and accountability release installments 1, 2, 3; `manual`: only `liberar` releases',
});
export type ModoLiberacao = Static<typeof ModoLiberacao>;

export const RepasseInput = Type.Object(
  {
    modo: Type.Optional(ModoLiberacao),
    parcelas: Type.Optional(Type.Array(ParcelaRepasse, { maxItems: 3 })),
  },
  { additionalProperties: false },
);

/** The driver's own installment rule; empty `parcelas` means none (ruling 14's default applies at payout). */
export const Repasse = Type.Object({
  modo: ModoLiberacao,
  parcelas: Type.Array(ParcelaRepasse, {
    description: 'Empty: the driver has no own rule; a single installment of 100% at position 1, dias 0, applies',
  }),
});
export type Repasse = Static<typeof Repasse>;

/** `POST /fiscal/motoristas` and `PUT /fiscal/motoristas/{id}`: `cpf` and `nome` are required (ruling 20). */
export const MotoristaInput = Type.Object(
  {
    cpf: Type.String({ minLength: 1, maxLength: 20, description: 'CPF, with or without punctuation (check digits validated)' }),
    nome: Type.String({ minLength: 2, maxLength: 60 }),
    telefone: Type.Optional(
      nullable(Type.String({ minLength: 1, maxLength: 30, description: 'Phone: 10–11 digits, optionally after +55' })),
    ),
    chave_pix: Type.Optional(nullable(ChavePix)),
    repasse: Type.Optional(nullable(RepasseInput)),
  },
  { title: 'MotoristaInput', additionalProperties: false },
);
export type MotoristaInput = Static<typeof MotoristaInput>;

/** The editable data of a driver as stored, normalized. */
export const MotoristaDados = Type.Object({
  cpf: Type.String({ description: 'CPF, 11 digits' }),
  nome: Type.String(),
  telefone: nullable(Type.String({ description: 'E.164: +55 and 10–11 digits' })),
  chave_pix: nullable(ChavePix),
  repasse: Repasse,
});
export type MotoristaDados = Static<typeof MotoristaDados>;

export const Motorista = Type.Object(
  {
    id: Type.Integer({ description: 'Integer id, per company' }),
    ...MotoristaDados.properties,
    cadastrado_em: Type.String({ format: 'date-time' }),
    atualizado_em: Type.String({ format: 'date-time' }),
  },
  { title: 'Motorista', description: "A driver of the carrier's registry (MDF-e `condutor`)" },
);
export type Motorista = Static<typeof Motorista>;

export const MotoristaListQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Part of the name (case and accents ignored) or of the CPF (punctuation ignored)',
    }),
  ),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type MotoristaListQuery = Static<typeof MotoristaListQuery>;
