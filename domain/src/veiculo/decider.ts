import {
  type DomainEventOf,
  type FieldError,
  type Proprietario,
  type ProprietarioInput,
  type VeiculoDados,
  type VeiculoInput,
} from '@frete/contracts';
import { Rejection } from '../decider';
import { registro, type RegistroState } from '../cadastros/registro';
import { registroPorCampo } from '../cadastros/registro-por-campo';
import { isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf } from '../fiscal/documents';
import { isValidPlaca, normalizePlaca } from '../fiscal/placa';
import { isValidRenavam, normalizeRenavam } from '../fiscal/renavam';

/**
 * The company's vehicle registry (stream `veiculos-<company id>`): integer ids, the plate unique among the active
 * vehicles. The collection rules are the registries' pattern (`cadastros/registro`); this file has the vehicle's own.
 */
export const veiculosStream = (companyId: string) => `veiculos-${companyId}`;

export type VeiculoEvent = DomainEventOf<'veiculo.cadastrado'> | DomainEventOf<'veiculo.alterado'> | DomainEventOf<'veiculo.removido'>;

export type VeiculoCommand =
  | { type: 'CadastrarVeiculo'; company_id: string; dados: VeiculoInput }
  | { type: 'AlterarVeiculo'; company_id: string; veiculo_id: number; dados: VeiculoInput }
  | { type: 'RemoverVeiculo'; company_id: string; veiculo_id: number };

/** Keyed by plate. */
export type VeiculosState = RegistroState<VeiculoDados>;

const invalid = (fields: FieldError[]): Rejection =>
  new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** CPF (11 digits) or CNPJ (14 characters, alphanumeric allowed), punctuation ignored, check digits validated. */
export const documentoPessoa = (raw: string): { documento: string; tipo_documento: 'CPF' | 'CNPJ' } | null => {
  const cpf = normalizeCpf(raw.trim());
  if (/^[0-9]{11}$/.test(cpf)) return isValidCpf(cpf) ? { documento: cpf, tipo_documento: 'CPF' } : null;
  const cnpj = normalizeCnpj(raw.trim());
  return isValidCnpj(cnpj) ? { documento: cnpj, tipo_documento: 'CNPJ' } : null;
};

const proprietarioOf = (p: ProprietarioInput, fields: FieldError[]): Proprietario | null => {
  const doc = documentoPessoa(p.documento);
  if (!doc) {
    fields.push({ field: 'proprietario.documento', message: 'not a valid CPF or CNPJ (check digits)' });
    return null;
  }
  return { ...doc, nome: p.nome.trim(), rntrc: p.rntrc, ie: p.ie ?? null, uf: p.uf ?? null, tipo_proprietario: p.tipo_proprietario };
};

/** The input judged and normalized; every invalid field is reported at once as 400 `validacao`. */
export function normalizarVeiculo(input: VeiculoInput): VeiculoDados {
  const fields: FieldError[] = [];
  const placa = normalizePlaca(input.placa);
  if (!isValidPlaca(placa)) fields.push({ field: 'placa', message: 'not a plate: old ABC1234 or Mercosur ABC1D23' });
  let renavam: string | null = null;
  if (input.renavam !== undefined && input.renavam !== null) {
    renavam = normalizeRenavam(input.renavam);
    if (!/^[0-9]{11}$/.test(renavam)) fields.push({ field: 'renavam', message: 'RENAVAM has 9 to 11 digits' });
    else if (!isValidRenavam(renavam)) fields.push({ field: 'renavam', message: 'RENAVAM check digit does not match' });
  }
  const proprietario = input.proprietario ? proprietarioOf(input.proprietario, fields) : null;
  if (fields.length > 0) throw invalid(fields);
  return {
    placa,
    renavam,
    rntrc: input.rntrc ?? null,
    uf: input.uf ?? null,
    tara_kg: input.tara_kg ?? null,
    capacidade_kg: input.capacidade_kg ?? null,
    capacidade_m3: input.capacidade_m3 ?? null,
    tipo_rodado: input.tipo_rodado ?? null,
    tipo_carroceria: input.tipo_carroceria ?? null,
    tipo: input.tipo ?? 'tracao',
    proprietario,
  };
}

export const registroVeiculos = registro<VeiculoCommand, VeiculoEvent, VeiculoInput, VeiculoDados>({
  ...registroPorCampo({
    comandos: 'Veiculo',
    eventos: 'veiculo',
    campo: 'placa',
    rotulo: 'plate',
    nome: 'vehicle',
    duplicado: 'veiculo_duplicado',
  }),
  stream: veiculosStream,
  normalizar: normalizarVeiculo,
});
export const veiculoDecider = registroVeiculos.decider;
