import { type FastifyReply, type FastifyRequest } from 'fastify';
import { brlDeCentavos, type Centavos, Rejection } from '@frete/domain';
import { CursorInvalido } from '@frete/projections';
import { paginaDeErro } from '../erros';

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

/** A business rule the handler refused: 422 with its reason (404 when the thing is not the company's). */
export function recusa(request: FastifyRequest, reply: FastifyReply, e: Rejection, motivo?: string) {
  if (e.code === 'nao_encontrado') return naoEncontrada(request, reply, 'O documento');
  return paginaDeErro(
    request,
    reply,
    422,
    'Operação recusada',
    `${motivo ?? 'A operação não é permitida agora.'} (${e.code}: ${e.message})`,
  );
}

export { Rejection };
