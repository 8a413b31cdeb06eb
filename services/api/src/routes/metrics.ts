import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ApiDeps } from '../deps';
import { limiteRequisicoes } from '../schemas';

/**
 * Prometheus scrape endpoint, outside /v1 and without a credential like `/health`: it names no company and no
 * document, only counts and latencies. Operators keep it off the public network (README, "Metrics").
 */
export const metricsRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/metrics',
      {
        config: { public: true },
        schema: {
          operationId: 'obterMetricas',
          tags: ['Saúde'],
          summary: 'Prometheus metrics of this process (outside /v1; keep it off the public network)',
          description:
            'The text exposition format (`text/plain; version=0.0.4`): HTTP, event store, projection and relay lag, processors, ' +
            'batch rows, fiscal authority calls and Node runtime. See the README, section "Metrics", for each name.',
          security: [],
          produces: ['text/plain'],
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', description: 'Metrics in the Prometheus text format' }),
            ...limiteRequisicoes(),
          },
        },
      },
      async (_req, reply) => {
        const text = await deps.metrics.render();
        return reply.type(deps.metrics.contentType).send(Buffer.from(text, 'utf8'));
      },
    );
  };
