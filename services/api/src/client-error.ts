import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { type Socket } from 'node:net';
import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { type ErrorCode } from '@frete/contracts';
import { ApiError, envelope, errorHandler } from './errors';

const answerOf = (code: string | undefined): { status: number; code: ErrorCode; message: string } => {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'cabecalhos_muito_grandes', message: 'the request headers are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'tempo_de_requisicao_esgotado', message: 'the request was not received in time' };
    default:
      return { status: 400, code: 'validacao', message: 'malformed HTTP request' };
  }
};

/**
 * Requests Node refuses before Fastify sees them (headers too large, malformed HTTP, too slow) get the envelope
 * and `X-Request-Id` like every other failure (ruling 5). The headers could not be read, so the id is a new one;
 * the connection is closed, as Node does, because what follows on it cannot be trusted.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const answer = answerOf(err.code);
    const id = randomUUID();
    const body = JSON.stringify(envelope(answer.code, answer.message, id));
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

const URL_REFUSALS: Record<string, string> = {
  FST_ERR_BAD_URL: 'not a valid URL (invalid percent-encoding)',
  FST_ERR_MAX_PARAM_LENGTH: 'a path segment is longer than 100 characters',
};

/**
 * A URL the router cannot take (bad percent-encoding, a path parameter over its length limit) is refused before
 * any hook runs: the answer gets its `X-Request-Id` and the envelope here.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', request.id);
  const refusal = URL_REFUSALS[error.code];
  errorHandler(
    refusal ? new ApiError('validacao', `URL: ${refusal}`, { fields: [{ field: '(url)', message: refusal }] }) : error,
    request,
    reply,
  );
}
