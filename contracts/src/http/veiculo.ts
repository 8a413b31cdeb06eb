import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, InteiroEnum, PageQuery, Uf } from './common';
import { Rntrc } from './configuracao';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

/** MDF-e `veicTracao/tpRod`: 01 truck, 02 toco, 03 cavalo mecânico, 04 VAN, 05 utilitário, 06 outros. */
export const TipoRodado = Type.Union(
  ['01', '02', '03', '04', '05', '06'].map((c) => Type.Literal(c)),
  {
    description: 'tpRod: 01 truck, 02 toco, 03 cavalo mecânico, 04 VAN, 05 utilitário, 06 outros',
  },
);
export type TipoRodado = Static<typeof TipoRodado>;

/** MDF-e `tpCar`: 00 não aplicável, 01 aberta, 02 fechada/baú, 03 granelera, 04 porta-contêiner, 05 sider. */
export const TipoCarroceria = Type.Union(
  ['00', '01', '02', '03', '04', '05'].map((c) => Type.Literal(c)),
  {
    description: 'tpCar: 00 não aplicável, 01 aberta, 02 fechada/baú, 03 granelera, 04 porta-contêiner, 05 sider',
  },
);
export type TipoCarroceria = Static<typeof TipoCarroceria>;

/** `veicTracao` (traction unit) or `veicReboque` (trailer) in the MDF-e. */
export const TipoVeiculo = Type.Union([Type.Literal('tracao'), Type.Literal('reboque')], {
  description: '`tracao` (veicTracao) or `reboque` (veicReboque)',
});
export type TipoVeiculo = Static<typeof TipoVeiculo>;

/** MDF-e `prop/tpProp`: 0 TAC agregado, 1 TAC independente, 2 outros. */
export const TipoProprietario = InteiroEnum([0, 1, 2], { description: 'tpProp: 0 TAC agregado, 1 TAC independente, 2 outros' });
export type TipoProprietario = Static<typeof TipoProprietario>;

const TaraKg = Type.Integer({ minimum: 0, maximum: 999999, description: 'Tare in kg (MDF-e `tara`)' });
const CapacidadeKg = Type.Integer({ minimum: 0, maximum: 999999, description: 'Capacity in kg (MDF-e `capKG`)' });
const CapacidadeM3 = Type.Integer({ minimum: 0, maximum: 999, description: 'Capacity in m³ (MDF-e `capM3`)' });
const InscricaoEstadualProp = Type.String({ pattern: '^(ISENTO|[0-9]{2,14})$', description: 'State registration, digits only, or ISENTO' });

/** The owner of a third party's vehicle (MDF-e `prop`). */
export const ProprietarioInput = Type.Object(
  {
    documento: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'CPF or CNPJ, with or without punctuation (check digits validated)',
    }),
    nome: Type.String({ minLength: 2, maxLength: 60 }),
    rntrc: Rntrc,
    ie: Type.Optional(nullable(InscricaoEstadualProp)),
    uf: Type.Optional(nullable(Uf)),
    tipo_proprietario: TipoProprietario,
  },
  { additionalProperties: false },
);
export type ProprietarioInput = Static<typeof ProprietarioInput>;

/**
 * `POST /fiscal/veiculos` and `PUT /fiscal/veiculos/{id}`: only `placa` is required (ruling 20). A PUT replaces every
 * editable field: an absent field becomes null.
 */
export const VeiculoInput = Type.Object(
  {
    placa: Type.String({
      minLength: 1,
      maxLength: 10,
      description: 'Old (`ABC1234`) or Mercosur (`ABC1D23`) plate; case and hyphen ignored',
    }),
    renavam: Type.Optional(
      nullable(Type.String({ minLength: 1, maxLength: 20, description: 'RENAVAM, 9 to 11 digits; check digit validated' })),
    ),
    rntrc: Type.Optional(nullable(Rntrc)),
    uf: Type.Optional(nullable(Uf)),
    tara_kg: Type.Optional(nullable(TaraKg)),
    capacidade_kg: Type.Optional(nullable(CapacidadeKg)),
    capacidade_m3: Type.Optional(nullable(CapacidadeM3)),
    tipo_rodado: Type.Optional(nullable(TipoRodado)),
    tipo_carroceria: Type.Optional(nullable(TipoCarroceria)),
    tipo: Type.Optional(TipoVeiculo),
    proprietario: Type.Optional(nullable(ProprietarioInput)),
  },
  { title: 'VeiculoInput', additionalProperties: false },
);
export type VeiculoInput = Static<typeof VeiculoInput>;

export const Proprietario = Type.Object({
  documento: Type.String({ description: 'CPF (11 digits) or CNPJ (14 characters), unpunctuated' }),
  tipo_documento: Type.Union([Type.Literal('CPF'), Type.Literal('CNPJ')]),
  nome: Type.String(),
  rntrc: Type.String(),
  ie: nullable(Type.String()),
  uf: nullable(Uf),
  tipo_proprietario: TipoProprietario,
});
export type Proprietario = Static<typeof Proprietario>;

/** The editable data of a vehicle as stored: normalized, every optional field null when not given. */
export const VeiculoDados = Type.Object({
  placa: Type.String({ description: 'Upper case, without hyphen' }),
  renavam: nullable(Type.String({ description: 'RENAVAM, 11 digits (left-padded with zeros)' })),
  rntrc: nullable(Type.String()),
  uf: nullable(Uf),
  tara_kg: nullable(Type.Integer()),
  capacidade_kg: nullable(Type.Integer()),
  capacidade_m3: nullable(Type.Integer()),
  tipo_rodado: nullable(TipoRodado),
  tipo_carroceria: nullable(TipoCarroceria),
  tipo: TipoVeiculo,
  proprietario: Type.Union([Type.Null(), Proprietario], { description: 'null for the own fleet' }),
});
export type VeiculoDados = Static<typeof VeiculoDados>;

export const Veiculo = Type.Object(
  {
    id: Type.Integer({ description: 'Integer id, per company' }),
    ...VeiculoDados.properties,
    cadastrado_em: Type.String({ format: 'date-time' }),
    atualizado_em: Type.String({ format: 'date-time' }),
  },
  { title: 'Veiculo', description: "A vehicle of the carrier's registry (MDF-e `veicTracao`/`veicReboque`)" },
);
export type Veiculo = Static<typeof Veiculo>;

export const VeiculoListQuery = Type.Object({
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the plate (case and hyphen ignored)' })),
  ...PageQuery.properties,
  ...CursorQuery.properties,
});
export type VeiculoListQuery = Static<typeof VeiculoListQuery>;

export const RegistroParams = Type.Object({ id: Type.String({ description: 'Integer id' }) });
