import fp from 'fastify-plugin';
import { type FastifyRequest } from 'fastify';
import { ErrorCodes } from '@frete/contracts';
import { type Metrics, quietly } from '@frete/platform';

/** A request no route matched (404, 405): one label for all, never the raw URL (unbounded). */
const UNMATCHED = '(unmatched)';

/** `error.code` of an error envelope, when it is one of the catalogue's codes (a bounded label); `other` otherwise. */
function errorCode(payload: unknown): string {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  if (text === null || !text.startsWith('{"error"')) return 'other';
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' && Object.hasOwn(ErrorCodes, code) ? code : 'other';
  } catch {
    return 'other';
  }
}

/**
 * HTTP rate, errors and latency per route template (`frete_http_*`), from hooks on every route. `metrics` is read
 * when a request is answered, not when the plugin registers: the OpenAPI document is built without one.
 */
export const httpMetrics = (metrics: () => Metrics) =>
  fp(async (app) => {
    const codes = new WeakMap<FastifyRequest, string>();
    // The error code is in the serialized envelope; onSend sees it only for error statuses, so successes cost nothing.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode >= 400) codes.set(request, errorCode(payload));
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      quietly(() => {
        const m = metrics();
        const route = request.is404 ? UNMATCHED : (request.routeOptions.url ?? UNMATCHED);
        const method = request.method;
        m.httpRequests.inc({ method, route, status: String(reply.statusCode) });
        m.httpDuration.observe({ method, route }, reply.elapsedTime / 1000);
        if (reply.statusCode >= 400) m.httpErrors.inc({ method, route, code: codes.get(request) ?? 'other' });
      });
      done();
    });
  });
