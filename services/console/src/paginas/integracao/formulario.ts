import { type FastifyRequest } from 'fastify';
import { ErrorCodes, type Environment } from '@frete/contracts';
import { Rejection } from '@frete/domain';

/** A urlencoded form as @fastify/formbody gives it: a repeated field (checkboxes) is an array. */
type Formulario = Record<string, string | string[] | undefined>;

const corpo = (request: FastifyRequest): Formulario => (request.body ?? {}) as Formulario;

/** One text field, trimmed; the last value if the field came more than once. */
export function texto(request: FastifyRequest, nome: string): string {
  const v = corpo(request)[nome];
  const s = Array.isArray(v) ? v[v.length - 1] : v;
  return typeof s === 'string' ? s.trim() : '';
}

/** Every value of a repeated field (checkboxes), without blanks. */
export function lista(request: FastifyRequest, nome: string): string[] {
  const v = corpo(request)[nome];
  const todos = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return todos.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim());
}

/**
 * What the panel answers for a handler's refusal: a bad input re-renders its form (400), a business rule too (422),
 * something missing is the 404 page; an unavailable dependency is no input problem and is thrown on.
 */
export function statusDaRecusa(err: unknown): 400 | 404 | 422 {
  if (!(err instanceof Rejection)) throw err;
  const status = ErrorCodes[err.code];
  if (status >= 500) throw err;
  return status === 400 ? 400 : status === 404 ? 404 : 422;
}

export const NOMES_AMBIENTE: Record<Environment, string> = { homologacao: 'Homologação (testes)', producao: 'Produção' };

const formato = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'America/Sao_Paulo' });

/** A moment as people in Brazil read it (Brasília time). */
export function quando(d: Date | string | null | undefined): string {
  if (d === null || d === undefined) return '—';
  return formato.format(typeof d === 'string' ? new Date(d) : d);
}
