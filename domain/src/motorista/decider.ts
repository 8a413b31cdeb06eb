import { type ChavePix, type DomainEventOf, type FieldError, type MotoristaDados, type MotoristaInput } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { isValidCpf, normalizeCpf } from '../fiscal/documents';
import { validarChavePix } from '../fiscal/pix';
import { problemasParcelas } from '../fiscal/repasse';

/**
 * The company's driver registry: one stream per company, `motoristas-<company id>`, so that integer ids are drawn in
 * order and a CPF is unique among the active drivers (the event store's expected revision settles races).
 */
export const motoristasStream = (companyId: string) => `motoristas-${companyId}`;

export type MotoristaEvent = DomainEventOf<'motorista.cadastrado'> | DomainEventOf<'motorista.alterado'> | DomainEventOf<'motorista.removido'>;

export type MotoristaCommand =
  | { type: 'CadastrarMotorista'; company_id: string; dados: MotoristaInput }
  | { type: 'AlterarMotorista'; company_id: string; motorista_id: number; dados: MotoristaInput }
  | { type: 'RemoverMotorista'; company_id: string; motorista_id: number };

export interface MotoristasState {
  proximo_id: number;
  /** Active CPF → id. */
  por_cpf: Record<string, number>;
  /** Active id → data. */
  ativos: Record<number, MotoristaDados>;
}

/** A contact phone: 10–11 digits, optionally after +55; stored as +55 and the digits. */
export const normalizarTelefone = (raw: string): string | null => {
  const digits = raw.replace(/[\s()-]/g, '').replace(/^\+55/, '');
  return /^[0-9]{10,11}$/.test(digits) ? `+55${digits}` : null;
};

/** The input judged and normalized; every invalid field is reported at once as 400 `validacao`. */
export function normalizarMotorista(input: MotoristaInput): MotoristaDados {
  const fields: FieldError[] = [];
  const cpf = normalizeCpf(input.cpf.trim());
  if (!isValidCpf(cpf)) {
    fields.push({ field: 'cpf', message: /^[0-9]{11}$/.test(cpf) ? 'CPF check digits do not match' : 'not a CPF (11 digits)' });
  }
  const nome = input.nome.trim().replace(/\s+/g, ' ');
  if (nome.length < 2) fields.push({ field: 'nome', message: 'at least 2 characters' });
  let telefone: string | null = null;
  if (input.telefone !== undefined && input.telefone !== null) {
    telefone = normalizarTelefone(input.telefone);
    if (!telefone) fields.push({ field: 'telefone', message: '10 or 11 digits, optionally after +55' });
  }
  let chave_pix: ChavePix | null = null;
  if (input.chave_pix) {
    const r = validarChavePix(input.chave_pix.tipo, input.chave_pix.valor);
    if (r.ok) chave_pix = { tipo: input.chave_pix.tipo, valor: r.valor };
    else fields.push({ field: 'chave_pix.valor', message: r.message });
  }
  const parcelas = input.repasse?.parcelas ?? [];
  for (const p of problemasParcelas(parcelas)) {
    fields.push({ field: p.path ? `repasse.parcelas.${p.path}` : 'repasse.parcelas', message: p.message });
  }
  if (fields.length > 0) throw new Rejection('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
  return {
    cpf,
    nome,
    telefone,
    chave_pix,
    repasse: {
      modo: input.repasse?.modo ?? 'automatico',
      parcelas: [...parcelas].sort((a, b) => a.posicao - b.posicao).map((p) => ({ posicao: p.posicao, percentual: p.percentual, dias: p.dias })),
    },
  };
}

const naoEncontrado = (id: number) => new Rejection('nao_encontrado', `driver ${id} not found`);

const duplicado = (cpf: string, id: number) =>
  new Rejection('motorista_duplicado', `CPF ${cpf} is already registered as driver ${id}`, {
    fields: [{ field: 'cpf', message: `already registered as driver ${id}` }],
    motorista_id: id,
  });

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const motoristaDecider: Decider<MotoristaCommand, MotoristasState, MotoristaEvent> = {
  initialState: { proximo_id: 1, por_cpf: {}, ativos: {} },
  decide(command, state) {
    switch (command.type) {
      case 'CadastrarMotorista': {
        const dados = normalizarMotorista(command.dados);
        const existing = state.por_cpf[dados.cpf];
        if (existing !== undefined) throw duplicado(dados.cpf, existing);
        return [{ type: 'motorista.cadastrado', data: { company_id: command.company_id, motorista_id: state.proximo_id, dados } }];
      }
      case 'AlterarMotorista': {
        const current = state.ativos[command.motorista_id];
        if (!current) throw naoEncontrado(command.motorista_id);
        const dados = normalizarMotorista(command.dados);
        const other = state.por_cpf[dados.cpf];
        if (other !== undefined && other !== command.motorista_id) throw duplicado(dados.cpf, other);
        if (same(dados, current)) return [];
        return [{ type: 'motorista.alterado', data: { company_id: command.company_id, motorista_id: command.motorista_id, dados } }];
      }
      case 'RemoverMotorista': {
        const current = state.ativos[command.motorista_id];
        if (!current) throw naoEncontrado(command.motorista_id);
        return [{ type: 'motorista.removido', data: { company_id: command.company_id, motorista_id: command.motorista_id, cpf: current.cpf } }];
      }
    }
  },
  evolve(state, event) {
    const por_cpf = { ...state.por_cpf };
    const ativos = { ...state.ativos };
    const id = event.data.motorista_id;
    const previous = ativos[id];
    if (previous) delete por_cpf[previous.cpf];
    switch (event.type) {
      case 'motorista.cadastrado':
      case 'motorista.alterado':
        ativos[id] = event.data.dados;
        por_cpf[event.data.dados.cpf] = id;
        break;
      case 'motorista.removido':
        delete ativos[id];
        break;
    }
    return { proximo_id: Math.max(state.proximo_id, id + 1), por_cpf, ativos };
  },
};
