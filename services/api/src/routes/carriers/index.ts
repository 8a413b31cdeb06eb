import { type FastifyPluginAsync } from 'fastify';
import { type ApiDeps } from '../../deps';
import { parcelasRepasseRoutes } from './parcelas-repasse';
import { parcelasRepasseMdfeRoutes } from './parcelas-repasse-mdfe';
import { parcelasRepasseListaRoutes } from './parcelas-repasse-lista';

/** Everything under /v1/carriers: installments of the driver's payout (scope `operacao`, set on each route). */
export const carriersRoutes =
  (deps: ApiDeps): FastifyPluginAsync =>
  async (app) => {
    await app.register(parcelasRepasseRoutes(deps), { prefix: '/parcelas-repasse' });
    await app.register(parcelasRepasseMdfeRoutes(deps), { prefix: '/parcelas-repasse' });
    await app.register(parcelasRepasseListaRoutes(deps), { prefix: '/parcelas-repasse' });
  };
