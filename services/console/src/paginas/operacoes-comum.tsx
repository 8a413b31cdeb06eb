import { type FastifyReply, type FastifyRequest } from 'fastify';
import { brlDeCentavos, type Centavos, Rejection } from '@frete/domain';
import { CursorInvalido } from '@frete/projections';
import { paginaDeErro } from '../erros';
import { mensagemDe } from '../mensagens';

/** Shared by the operations pages (batches, installments, CIOT, toll passes): formats, ids, paging, refusals. */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const POR_PAGINA = 50;

/** Money as the panel shows it: the Money module's Brazilian format with the currency sign. */
export const reais = (centavos: Centavos): string => `R$ ${brlDeCentavos(centavos)}`;

const DATA_HORA = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' });

/** An instant in Brasília time ("—" for none). */
export function dataHora(d: Date | string | null | undefined): string {
  if (d === null || d === undefined) return '—';
  return DATA_HORA.format(typeof d === 'string' ? new Date(d) : d);
}

/** A calendar day (`AAAA-MM-DD`, as the read models keep due dates) as the panel writes every date: dd/mm/aaaa. */
export function dia(d: string | null | undefined): string {
  const m = d ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(d) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '—';
}

/** Today in Brasília as `AAAA-MM-DD` (the calendar due dates are kept in). */
export const hojeEmBrasilia = (agora: Date): string => new Date(agora.getTime() - 3 * 3600_000).toISOString().slice(0, 10);

/** A client error the panel's error handler answers with its 400 page. */
class PedidoInvalido extends Error {
  readonly statusCode = 400;
}

/** The `cursor` of a list page (the projections' keyset cursor), bounded. */
export function cursorDe(request: FastifyRequest): string | undefined {
  const q = request.query as { cursor?: unknown } | undefined;
  if (q?.cursor === undefined) return undefined;
  if (typeof q.cursor !== 'string' || q.cursor.length > 2000) throw new PedidoInvalido('bad cursor');
  return q.cursor;
}

/** Runs a list query; a cursor the list never gave is the user's bad link (400), not a fault of ours. */
export async function listar<T>(consulta: () => Promise<T>): Promise<T> {
  try {
    return await consulta();
  } catch (e) {
    if (e instanceof CursorInvalido) throw new PedidoInvalido('bad cursor');
    throw e;
  }
}

/** The link to the page after this one, keeping the other query parameters. */
export function proxima(base: string, cursor: string | null, extra: Record<string, string> = {}): string | null {
  if (!cursor) return null;
  return `${base}?${new URLSearchParams({ ...extra, cursor }).toString()}`;
}

export const naoEncontrada = (request: FastifyRequest, reply: FastifyReply, oque: string) =>
  paginaDeErro(request, reply, 404, 'Não encontrado', `${oque} não existe nesta empresa.`);

export const proibido = (request: FastifyRequest, reply: FastifyReply) =>
  paginaDeErro(request, reply, 403, 'Sem permissão', 'Seu papel neste painel só permite consultar. Peça a um operador ou administrador.');

/** A business rule the handler refused: 422 with its reason in Portuguese (404 when the thing is not the company's). */
export function recusa(request: FastifyRequest, reply: FastifyReply, e: Rejection) {
  if (e.code === 'nao_encontrado') return naoEncontrada(request, reply, 'O documento');
  return paginaDeErro(request, reply, 422, 'Operação recusada', mensagemDe(e.code), `${e.code}: ${e.message}`);
}

export { Rejection };
