import { randomUUID } from 'node:crypto';
import { type IncomingMessage } from 'node:http';

const REASONABLE = /^[A-Za-z0-9._:-]{8,128}$/;

/** An incoming X-Request-Id that is a reasonable token is kept (ruling 5); otherwise a new one. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REASONABLE.test(incoming) ? incoming : randomUUID();
}
