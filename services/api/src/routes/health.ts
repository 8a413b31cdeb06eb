import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ApiDeps } from '../deps';
import { limiteRequisicoes } from '../schemas';

const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    checks: Type.Record(Type.String(), Type.Object({ ok: Type.Boolean(), detail: Type.String() }), {
      description: '`started` (migrations done, not shutting down), `database`, and `projections` (lag within READY_MAX_LAG_S)',
    }),
  },
  { description: 'Each check, passed or not, with why' },
);

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

    app.get(
      '/health/live',
      {
        config: { public: true },
        schema: {
          operationId: 'verificarVida',
          tags: ['Saúde'],
          summary: 'Liveness (outside /v1): 200 while the process serves',
          security: [],
          response: { 200: Type.Object({ status: Type.Literal('live') }), ...limiteRequisicoes() },
        },
      },
      async () => ({ status: 'live' as const }),
    );

    app.get(
      '/health/ready',
      {
        config: { public: true },
        schema: {
          operationId: 'verificarProntidao',
          tags: ['Saúde'],
          summary: 'Readiness with its checks (outside /v1): 503 while starting, shutting down, or projections lag',
          security: [],
          response: { 200: Readiness, 503: Readiness, ...limiteRequisicoes() },
        },
      },
      async (_req, reply) => {
        const readiness = await deps.readiness();
        return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness);
      },
    );
  };
