import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { type ErrorCode, ErrorCodes, type ErrorEnvelope } from '@frete/contracts';
import { Rejection } from '@frete/domain';
import { isDatabaseUnavailable, WrongExpectedRevision } from '@frete/platform';
import { CursorInvalido } from '@frete/projections';
import { IdempotentReplay, sendReplay } from './idempotent-replay';
import { fieldErrors } from './validation-messages';

/** An error the edge raises on purpose; the handler writes it in the envelope with its code's status. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorEnvelope['error']['details'] & Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const envelope = (code: string, message: string, requestId: string, details?: ErrorEnvelope['error']['details']): ErrorEnvelope => ({
  error: { code, message, request_id: requestId, ...(details ? { details } : {}) },
});

export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const id = request.id;
  const send = (status: number, body: ErrorEnvelope) => reply.status(status).type('application/json; charset=utf-8').send(body);
  if (error instanceof IdempotentReplay) return sendReplay(request, reply, error.answer);
  if (error instanceof CursorInvalido) {
    return send(
      400,
      envelope('validacao', `cursor: ${error.message}`, id, { fields: [{ field: 'querystring.cursor', message: error.message }] }),
    );
  }
  if (error instanceof ApiError) {
    if (error.headers) reply.headers(error.headers);
    return send(ErrorCodes[error.code], envelope(error.code, error.message, id, error.details));
  }
  if (error instanceof Rejection) {
    const tentarApos = error.details?.tentar_apos;
    if (typeof tentarApos === 'string')
      reply.header('Retry-After', String(Math.max(1, Math.ceil((Date.parse(tentarApos) - Date.now()) / 1000))));
  }
  if (error instanceof Rejection) return send(ErrorCodes[error.code], envelope(error.code, error.message, id, error.details));
  // Concurrent writes to the same resource outlasted the retries: a transient state, which a later retry gets past.
  if (error instanceof WrongExpectedRevision) {
    reply.header('Retry-After', '1');
    return send(503, envelope('consulta_indisponivel', 'concurrent requests are changing the same resource: retry shortly', id));
  }
  // The database is down, restarting or out of connections: nothing about the request is wrong, and a retry may pass.
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('Retry-After', '1');
    return send(503, envelope('consulta_indisponivel', 'the service cannot reach its database now: retry shortly', id));
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    const fields = fieldErrors(fe);
    const message = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    return send(400, envelope('validacao', message || 'invalid input', id, { fields }));
  }
  switch (fe.statusCode) {
    case 400:
      return send(
        400,
        envelope('validacao', 'malformed request body: ' + safeMessage(fe), id, { fields: [{ field: '(body)', message: 'malformed' }] }),
      );
    case 413:
      return send(413, envelope('payload_muito_grande', 'payload too large', id));
    case 415:
      return send(415, envelope('tipo_de_midia_nao_suportado', `unsupported content type '${request.headers['content-type'] ?? ''}'`, id));
    case 404:
      return send(404, envelope('nao_encontrado', 'not found', id));
    case 429:
      return send(429, envelope('limite_requisicoes', 'too many requests', id));
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(500, envelope('erro_interno', 'internal error', id));
}

/** JSON parse messages name a position, never internals; other messages are replaced. */
const safeMessage = (e: FastifyError) =>
  /^(Unexpected|Expected|Body|Bad control|Unterminated)/.test(e.message) ? e.message : 'cannot parse body';
