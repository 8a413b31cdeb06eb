import { type ChavePix, type DomainEventOf, type FieldError, type MotoristaDados, type MotoristaInput } from '@frete/contracts';
import { Rejection } from '../decider';
import { ativoPorChave, registro, type RegistroState } from '../cadastros/registro';
import { registroPorCampo } from '../cadastros/registro-por-campo';
import { isValidCpf, normalizeCpf } from '../fiscal/documents';
import { validarChavePix } from '../fiscal/pix';
import { problemasParcelas } from '../fiscal/repasse';

/**
 * The company's driver registry (stream `motoristas-<company id>`): integer ids, the CPF unique among the active
 * drivers. The collection rules are the registries' pattern (`cadastros/registro`); this file has the driver's own.
 */
export const motoristasStream = (companyId: string) => `motoristas-${companyId}`;

export type MotoristaEvent =
  | DomainEventOf<'motorista.cadastrado'>
  | DomainEventOf<'motorista.alterado'>
  | DomainEventOf<'motorista.removido'>;

export type MotoristaCommand =
  | { type: 'CadastrarMotorista'; company_id: string; dados: MotoristaInput }
  | { type: 'AlterarMotorista'; company_id: string; motorista_id: number; dados: MotoristaInput }
  | { type: 'RemoverMotorista'; company_id: string; motorista_id: number };

/** Keyed by CPF. */
export type MotoristasState = RegistroState<MotoristaDados>;

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
      parcelas: [...parcelas]
        .sort((a, b) => a.posicao - b.posicao)
        .map((p) => ({ posicao: p.posicao, percentual: p.percentual, dias: p.dias })),
    },
  };
}

export const registroMotoristas = registro<MotoristaCommand, MotoristaEvent, MotoristaInput, MotoristaDados>({
  ...registroPorCampo({
    comandos: 'Motorista',
    eventos: 'motorista',
    campo: 'cpf',
    rotulo: 'CPF',
    nome: 'driver',
    duplicado: 'motorista_duplicado',
  }),
  stream: motoristasStream,
  normalizar: normalizarMotorista,
});
export const motoristaDecider = registroMotoristas.decider;

/** The active driver with this CPF, from the registry's own stream (payout). */
export const motoristaAtivoPorCpf = (state: MotoristasState, cpf: string): MotoristaDados | undefined => ativoPorChave(state, cpf);
