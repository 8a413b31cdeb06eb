import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type StoredAnswer } from '@frete/platform';

/** Thrown where a key is claimed inside a handler (multipart bodies): the error handler sends the stored answer. */
export class IdempotentReplay extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('idempotent replay');
  }
}

/**
 * Sends a stored answer again: its status, body and content headers. An error envelope names the request that is
 * answered (`request_id` equals this answer's `X-Request-Id`, as every error does), not the first one.
 */
export function sendReplay(request: FastifyRequest, reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  reply.status(answer.status).headers(answer.headers).header('Idempotent-Replayed', 'true');
  if (answer.status >= 400 && /json/.test(answer.headers['content-type'] ?? '')) {
    try {
      const body = JSON.parse(answer.body.toString('utf8')) as { error?: { request_id?: string } };
      if (body.error) {
        body.error.request_id = request.id;
        return reply.send(JSON.stringify(body));
      }
    } catch {
      // Not the envelope after all: sent as stored.
    }
  }
  return reply.send(answer.body);
}
