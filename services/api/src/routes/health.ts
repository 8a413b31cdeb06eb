import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ApiDeps } from '../deps';
import { limiteRequisicoes } from '../schemas';

export const healthRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        config: { public: true },
        schema: {
          operationId: 'verificarSaude',
          tags: ['Saúde'],
          summary: 'Readiness (outside /v1): 200 once the service can answer',
          security: [],
          response: {
            200: Type.Object({ status: Type.Literal('ok'), environment: Type.String() }),
            503: Type.Object({ status: Type.Literal('starting') }),
            ...limiteRequisicoes(),
          },
        },
      },
      async (_req, reply) => {
        if (!deps.ready()) return reply.status(503).send({ status: 'starting' as const });
        await deps.pool.query('SELECT 1');
        return { status: 'ok' as const, environment: deps.config.environment };
      },
    );
  };
