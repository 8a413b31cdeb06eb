import { type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { contextOfHeaders, openSpan, type OpenSpan, SpanKind, withLogFields } from '@frete/platform';

interface Traced {
  span: OpenSpan;
  error: unknown;
}

const abertos = new WeakMap<FastifyRequest, Traced>();

/**
 * Each request in a server span named after its route (`POST /v1/fiscal/cte/:id/emissao`), a child of the caller's
 * `traceparent` when it sent one. The handler runs with that span active and with the request id in the logging
 * context, so the appends it makes (and the lines logged meanwhile) belong to the request. The span is opened on
 * arrival but made active only from `preHandler`: a body read in between (stream events) would not keep it.
 */
export const tracing = fp(async (app) => {
  // Hooks that never wait are written with `done` (see app.ts).
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = openSpan(route ? `${request.method} ${route}` : request.method, {
      kind: SpanKind.SERVER,
      parent: contextOfHeaders(request.headers),
      attributes: {
        'http.request.method': request.method,
        'url.path': request.url.split('?')[0]!,
        'http.request_id': request.id,
        ...(route ? { 'http.route': route } : {}),
      },
    });
    abertos.set(request, { span, error: null });
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const traced = abertos.get(request);
    withLogFields({ request_id: request.id }, () => (traced ? traced.span.run(done) : done()));
  });
  app.addHook('onError', (request, _reply, error, done) => {
    const traced = abertos.get(request);
    if (traced) traced.error = error;
    done();
  });
  const end = (request: FastifyRequest, statusCode: number | null) => {
    const traced = abertos.get(request);
    if (!traced) return;
    abertos.delete(request);
    if (statusCode !== null) traced.span.setAttributes({ 'http.response.status_code': statusCode });
    // A client's mistake (4xx) is the answer working; only the server's failures mark the span.
    if (statusCode === null || statusCode >= 500)
      traced.span.fail(traced.error ?? new Error(statusCode === null ? 'aborted' : `HTTP ${statusCode}`));
    traced.span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    end(request, null);
    done();
  });
});
