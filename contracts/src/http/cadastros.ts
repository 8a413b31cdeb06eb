import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, PageQuery } from './common';
import { ChavePix, Repasse, TipoChavePix } from './motorista';
import { TipoDocumento, TipoTransportador, VerificacaoSimulada } from './consultas';
import { TipoVeiculo } from './veiculo';

/**
 * Registrations (scope `cadastros`, spec sections 4 and 5): the invitation of a carrier to onboarding, the aggregate
 * drivers (TAC-agregado) of the company and their onboarding, and the check of a PIX key in the PIX directory (DICT).
 * The spec leaves every body out; these are the project's design (README, "Registrations and regulator queries").
 */
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);
const Instant = (description: string) => Type.String({ format: 'date-time', description });

// ---------------------------------------------------------------------------------------------------------------
// Invitations

export const ContatoConviteInput = Type.Object(
  {
    nome: Type.String({ minLength: 2, maxLength: 60, description: 'Name of the person to contact' }),
    email: Type.String({ minLength: 3, maxLength: 77, description: 'E-mail the invitation goes to' }),
    telefone: Type.Optional(
      nullable(Type.String({ minLength: 1, maxLength: 30, description: 'Phone: 10–11 digits, optionally after +55' })),
    ),
  },
  { additionalProperties: false },
);

/** `POST /convites/transportadoras`. */
export const ConviteTransportadoraInput = Type.Object(
  {
    cnpj: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'CNPJ of the invited carrier, with or without punctuation, alphanumeric allowed; check digits validated',
    }),
    razao_social: Type.Optional(
      nullable(
        Type.String({ minLength: 2, maxLength: 120, description: 'Corporate name of the invited carrier, as the inviter knows it' }),
      ),
    ),
    contato: ContatoConviteInput,
  },
  { additionalProperties: false, $id: 'ConviteTransportadoraInput', description: 'Invitation of a carrier to onboarding' },
);
export type ConviteTransportadoraInput = Static<typeof ConviteTransportadoraInput>;

export const ContatoConvite = Type.Object({
  nome: Type.String(),
  email: Type.String({ description: 'Lower case' }),
  telefone: nullable(Type.String({ description: 'E.164: +55 and 10–11 digits' })),
});
export type ContatoConvite = Static<typeof ContatoConvite>;

export const EstadoConvite = Type.Union([Type.Literal('pendente'), Type.Literal('aceito'), Type.Literal('expirado')], {
  description:
    '`pendente` (sent, waiting), `aceito` (the CNPJ became a carrier customer while the invitation was pending), ' +
    '`expirado` (its validity ended first)',
});
export type EstadoConvite = Static<typeof EstadoConvite>;

export const ConviteTransportadora = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    cnpj: Type.String({ description: 'Unpunctuated, upper case' }),
    razao_social: nullable(Type.String()),
    contato: ContatoConvite,
    estado: EstadoConvite,
    enviado_em: Instant('When the invitation was sent'),
    expira_em: Instant('When a pending invitation expires'),
    aceito_em: nullable(Instant('When the CNPJ became a carrier customer')),
    expirado_em: nullable(Instant('When it expired')),
  },
  { $id: 'ConviteTransportadora', description: 'An invitation of a carrier to onboarding' },
);
export type ConviteTransportadora = Static<typeof ConviteTransportadora>;

export const ConviteListQuery = Type.Object({
  estado: Type.Optional(EstadoConvite),
  cnpj: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Only invitations of this CNPJ (punctuation ignored)' })),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type ConviteListQuery = Static<typeof ConviteListQuery>;

export const ConviteParams = Type.Object({ id: Type.String({ description: "The invitation's id (UUID)" }) });
export type ConviteParams = Static<typeof ConviteParams>;

// ---------------------------------------------------------------------------------------------------------------
// Aggregate drivers

export const EstadoAgregado = Type.Union([Type.Literal('cadastro_incompleto'), Type.Literal('aguardando_rntrc'), Type.Literal('ativo')], {
  description:
    '`cadastro_incompleto`: the registry lacks something (driver record, PIX key, one RNTRC); `aguardando_rntrc`: the ' +
    'registry is complete but the RNTRC is not confirmed active at the regulator; `ativo`: nothing pending',
});
export type EstadoAgregado = Static<typeof EstadoAgregado>;

export const CodigoPendenciaAgregado = Type.Union(
  ['motorista_nao_cadastrado', 'chave_pix_ausente', 'rntrc_divergente', 'rntrc_inativo', 'rntrc_nao_verificado'].map((c) =>
    Type.Literal(c),
  ),
  { description: 'What keeps the onboarding from `ativo`' },
);
export type CodigoPendenciaAgregado =
  | 'motorista_nao_cadastrado'
  | 'chave_pix_ausente'
  | 'rntrc_divergente'
  | 'rntrc_inativo'
  | 'rntrc_nao_verificado';

export const PendenciaAgregado = Type.Object({
  code: CodigoPendenciaAgregado,
  message: Type.String(),
});
export type PendenciaAgregado = Static<typeof PendenciaAgregado>;

export const SituacaoRntrcAgregado = Type.Union([Type.Literal('ativo'), Type.Literal('inativo'), Type.Literal('nao_verificado')], {
  description: 'At the regulator; `nao_verificado` when no regulator provider answers (production, ruling 7)',
});

export const Agregado = Type.Object(
  {
    documento: Type.String({ description: "The owner's CPF (11 digits) or CNPJ (14 characters), unpunctuated" }),
    tipo_documento: TipoDocumento,
    nome: Type.String({ description: "The owner's name, from the most recently updated vehicle" }),
    rntrc: Type.Object({
      numero: Type.String({ description: "The owner's RNTRC, from the most recently updated vehicle" }),
      situacao: SituacaoRntrcAgregado,
      tipo: nullable(TipoTransportador),
      equiparado_tac: nullable(Type.Boolean()),
      verificacao: Type.Optional(VerificacaoSimulada),
    }),
    veiculos: Type.Array(
      Type.Object({
        id: Type.Integer(),
        placa: Type.String(),
        tipo: TipoVeiculo,
        rntrc: Type.String({ description: 'The owner RNTRC this vehicle names' }),
      }),
      { description: 'Active vehicles of the registry owned by this aggregate (tipo_proprietario 0), by id' },
    ),
    motorista: nullable(
      Type.Object(
        {
          id: Type.Integer({ description: 'Id at /fiscal/motoristas' }),
          cpf: Type.String(),
          nome: Type.String(),
          telefone: nullable(Type.String()),
          chave_pix: nullable(ChavePix),
          repasse: Repasse,
        },
        {
          description: "The driver record: the active driver with the owner's CPF; for a CNPJ owner, the driver whose PIX key is that CNPJ",
        },
      ),
    ),
    estado: EstadoAgregado,
    pendencias: Type.Array(PendenciaAgregado, { description: 'Empty when `ativo`' }),
    cadastrado_em: Instant("The first active vehicle's registration"),
    atualizado_em: Instant('The latest change of its vehicles or driver record'),
  },
  { $id: 'Agregado', description: 'An aggregate driver (TAC-agregado) of the company and the state of its onboarding' },
);
export type Agregado = Static<typeof Agregado>;

export const AgregadoListQuery = Type.Object({
  estado: Type.Optional(EstadoAgregado),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Part of the name (case and accents ignored), of the document or of a plate (punctuation ignored)',
    }),
  ),
  ...PageQuery.properties,
});
export type AgregadoListQuery = Static<typeof AgregadoListQuery>;

export const AgregadoParams = Type.Object({
  documento: Type.String({ description: 'CPF or CNPJ, with or without punctuation (a `/` as `%2F`)' }),
});
export type AgregadoParams = Static<typeof AgregadoParams>;

// ---------------------------------------------------------------------------------------------------------------
// PIX key check

/** `POST /chaves-pix/verificacao`. */
export const VerificacaoChavePixInput = Type.Object(
  {
    tipo: Type.Optional(TipoChavePix),
    chave: Type.String({ minLength: 1, maxLength: 100, description: 'The key; its type is inferred when `tipo` is absent' }),
  },
  { additionalProperties: false, $id: 'VerificacaoChavePixInput', description: 'A PIX key to look up in the PIX directory (DICT)' },
);
export type VerificacaoChavePixInput = Static<typeof VerificacaoChavePixInput>;

export const VerificacaoChavePix = Type.Object(
  {
    tipo: TipoChavePix,
    chave: Type.String({ description: 'The key, normalized as the DICT stores it' }),
    titular: Type.Object({
      tipo_pessoa: Type.Union([Type.Literal('fisica'), Type.Literal('juridica')]),
      nome: Type.String({ description: "A person's name masked (`JOAO D* S****`); a company's corporate name in full" }),
      documento: Type.String({ description: "A person's CPF masked (`***.982.247-**`); a company's CNPJ in full, formatted" }),
    }),
    banco: Type.Object({
      ispb: Type.String({ description: "ISPB of the account holder's institution, 8 digits" }),
      nome: Type.String(),
    }),
    tipo_conta: Type.Union([Type.Literal('corrente'), Type.Literal('poupanca'), Type.Literal('pagamento')]),
    verificacao: Type.Optional(VerificacaoSimulada),
  },
  { $id: 'VerificacaoChavePix', description: "The key's holder and institution as the PIX directory has them" },
);
export type VerificacaoChavePix = Static<typeof VerificacaoChavePix>;

export const CADASTRO_SCHEMAS = [
  ConviteTransportadoraInput,
  ConviteTransportadora,
  Agregado,
  VerificacaoChavePixInput,
  VerificacaoChavePix,
];
