import { type FastifyPluginAsync } from 'fastify';
import { type ApiDeps } from '../../deps';
import { convitesRoutes } from './convites';
import { agregadosRoutes } from './agregados';
import { chavesPixRoutes } from './chaves-pix';

/** Registrations (scope `cadastros`, set on each route): carrier invitations, aggregate drivers, PIX key check. */
export const cadastrosRoutes =
  (deps: ApiDeps): FastifyPluginAsync =>
  async (app) => {
    await app.register(convitesRoutes(deps));
    await app.register(agregadosRoutes(deps));
    await app.register(chavesPixRoutes(deps));
  };
