import fp from 'fastify-plugin';
import { AuthError } from '@frete/platform';
import { ApiError } from '../errors';
import { type ApiDeps } from '../deps';

/**
 * The three gates of every call, in order (spec section 1): credential, scope, tenant. The tenant is the
 * principal's company; every query below filters by it, so another company's resource is simply not found.
 * A GET then waits until the read models have the company's last write (read your writes).
 */
export const authentication = (deps: ApiDeps) =>
  fp(async (app) => {
    app.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      if (config.public || request.is404) return;
      let principal;
      try {
        principal = await deps.authenticator.authenticate(request.headers.authorization);
      } catch (err) {
        if (err instanceof AuthError) {
          throw new ApiError('nao_autenticado', err.message, undefined, { 'WWW-Authenticate': 'Bearer realm="frete-fiscal"' });
        }
        throw err;
      }
      request.principal = principal;
      const scope = config.scope;
      if (scope && !principal.scopes.includes(scope)) {
        throw new ApiError('escopo_nao_habilitado', `scope '${scope}' is not enabled for this credential`);
      }
      if (scope === 'fiscal') {
        const c = principal.company;
        if (!c.carrier) throw new ApiError('transportadora_nao_habilitada', 'the fiscal track is exclusive to carriers');
        if (!c.fiscal_ready) throw new ApiError('transportadora_nao_habilitada', 'the carrier has not finished its fiscal registration');
        if (deps.config.environment === 'producao' && !c.fiscal_production) {
          throw new ApiError(
            'homologacao_obrigatoria',
            'the production fiscal journey is not released for this company; use the sandbox (homologacao)',
          );
        }
      }
    });
    // Most GETs have nothing to wait for, known without a query: they go on in the same turn.
    app.addHook('preHandler', (request, _reply, done) => {
      const companyId = request.principal?.companyId;
      if (request.method !== 'GET' || !companyId || deps.readYourWrites.caughtUp(companyId)) return done();
      deps.readYourWrites.waitFor(companyId).then(() => done(), done);
    });
  });
