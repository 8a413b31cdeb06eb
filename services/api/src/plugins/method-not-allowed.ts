import fp from 'fastify-plugin';
import { envelope } from '../errors';

/** Ruling 5: a known path with another method answers 405 with `Allow`, in the envelope. */
export const methodNotAllowed = fp(async (app) => {
  const routes: { pattern: RegExp; method: string }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = new RegExp(
      '^' +
        route.url
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\\?\*/g, '.*')
          .replace(/:[^/]+/g, '[^/]+') +
        '/?$',
    );
    for (const m of methods) routes.push({ pattern, method: m });
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404 !== true) return done();
    const path = request.url.split('?')[0] ?? '';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length === 0 || allowed.includes(request.method)) return done();
    reply.header('Allow', allowed.join(', '));
    // Answered here: without `done`, the request goes no further.
    reply
      .status(405)
      .send(envelope('metodo_nao_permitido', `${request.method} is not allowed here; allowed: ${allowed.join(', ')}`, request.id));
  });
});
