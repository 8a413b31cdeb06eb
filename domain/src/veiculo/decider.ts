import { type DomainEventOf, type FieldError, type Proprietario, type ProprietarioInput, type VeiculoDados, type VeiculoInput } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf } from '../fiscal/documents';
import { isValidPlaca, normalizePlaca } from '../fiscal/placa';
import { isValidRenavam, normalizeRenavam } from '../fiscal/renavam';

/**
 * The company's vehicle registry: one stream per company, `veiculos-<company id>`, so that integer ids are drawn in
 * order and a plate is unique among the active vehicles (the event store's expected revision settles races).
 */
export const veiculosStream = (companyId: string) => `veiculos-${companyId}`;

export type VeiculoEvent = DomainEventOf<'veiculo.cadastrado'> | DomainEventOf<'veiculo.alterado'> | DomainEventOf<'veiculo.removido'>;

export type VeiculoCommand =
  | { type: 'CadastrarVeiculo'; company_id: string; dados: VeiculoInput }
  | { type: 'AlterarVeiculo'; company_id: string; veiculo_id: number; dados: VeiculoInput }
  | { type: 'RemoverVeiculo'; company_id: string; veiculo_id: number };

export interface VeiculosState {
  proximo_id: number;
  /** Active plate → id. */
  por_placa: Record<string, number>;
  /** Active id → data. */
  ativos: Record<number, VeiculoDados>;
}

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

const naoEncontrado = (id: number) => new Rejection('nao_encontrado', `vehicle ${id} not found`);

const duplicado = (placa: string, id: number) =>
  new Rejection('veiculo_duplicado', `plate ${placa} is already registered as vehicle ${id}`, {
    fields: [{ field: 'placa', message: `already registered as vehicle ${id}` }],
    veiculo_id: id,
  });

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const veiculoDecider: Decider<VeiculoCommand, VeiculosState, VeiculoEvent> = {
  initialState: { proximo_id: 1, por_placa: {}, ativos: {} },
  decide(command, state) {
    switch (command.type) {
      case 'CadastrarVeiculo': {
        const dados = normalizarVeiculo(command.dados);
        const existing = state.por_placa[dados.placa];
        if (existing !== undefined) throw duplicado(dados.placa, existing);
        return [{ type: 'veiculo.cadastrado', data: { company_id: command.company_id, veiculo_id: state.proximo_id, dados } }];
      }
      case 'AlterarVeiculo': {
        const current = state.ativos[command.veiculo_id];
        if (!current) throw naoEncontrado(command.veiculo_id);
        const dados = normalizarVeiculo(command.dados);
        const other = state.por_placa[dados.placa];
        if (other !== undefined && other !== command.veiculo_id) throw duplicado(dados.placa, other);
        if (same(dados, current)) return [];
        return [{ type: 'veiculo.alterado', data: { company_id: command.company_id, veiculo_id: command.veiculo_id, dados } }];
      }
      case 'RemoverVeiculo': {
        const current = state.ativos[command.veiculo_id];
        if (!current) throw naoEncontrado(command.veiculo_id);
        return [{ type: 'veiculo.removido', data: { company_id: command.company_id, veiculo_id: command.veiculo_id, placa: current.placa } }];
      }
    }
  },
  evolve(state, event) {
    const por_placa = { ...state.por_placa };
    const ativos = { ...state.ativos };
    const id = event.data.veiculo_id;
    const previous = ativos[id];
    if (previous) delete por_placa[previous.placa];
    switch (event.type) {
      case 'veiculo.cadastrado':
      case 'veiculo.alterado':
        ativos[id] = event.data.dados;
        por_placa[event.data.dados.placa] = id;
        break;
      case 'veiculo.removido':
        delete ativos[id];
        break;
    }
    return { proximo_id: Math.max(state.proximo_id, id + 1), por_placa, ativos };
  },
};
