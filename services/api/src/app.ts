import './fastify-types';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { type Logger, proxyTrust, requestChildLogger } from '@frete/platform';
import { type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ApiError, envelope, errorHandler } from './errors';
import { requestId } from './request-id';
import { buildSerializer } from './serializer';
import { ValidationOnDemand } from './validator';
import { SHARED_SCHEMAS } from './schemas';
import { completarDocumento, OPENAPI_COMPONENTS, OPENAPI_TAGS } from './openapi';
import { type ApiDeps } from './deps';
import { authentication } from './plugins/authentication';
import { methodNotAllowed } from './plugins/method-not-allowed';
import { textInput } from './plugins/text-input';
import { unreadBody } from './plugins/unread-body';
import { idempotency } from './plugins/idempotency';
import { tracing } from './plugins/tracing';
import { clientErrorHandler, frameworkErrors } from './client-error';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './routes/metrics';
import { httpMetrics } from './plugins/metrics';
import { oauthRoutes } from './routes/oauth';
import { fiscalRoutes } from './routes/fiscal';
import { carriersRoutes } from './routes/carriers';
import { valePedagioRoutes } from './routes/vale-pedagio';
import { contaOperacionalRoutes } from './routes/conta-operacional';
import { consultasRoutes } from './routes/consultas';
import { auditoriaRoutes } from './routes/auditoria';
import { cadastrosRoutes } from './routes/cadastros';
import { webhooksRoutes } from './routes/webhooks';

export const BODY_LIMIT = 2 * 1024 * 1024 + 64 * 1024;

/** `logger`: the process's pino logger (every line with `request_id`); none, no request logging. */
export async function buildApi(deps: ApiDeps, options: { logger?: Logger } = {}): Promise<FastifyInstance> {
  const logger = options.logger;
  const logging: Pick<FastifyServerOptions, 'logger' | 'loggerInstance' | 'logController' | 'childLoggerFactory'> = logger
    ? {
        loggerInstance: logger as FastifyBaseLogger,
        logController: new LogController({ requestIdLogLabel: 'request_id' }),
        childLoggerFactory: (parent, bindings, opts) => requestChildLogger(parent as Logger, bindings, opts) as FastifyBaseLogger,
      }
    : { logger: false };
  const validation = new ValidationOnDemand();
  const app = Fastify({
    ...logging,
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    // Every per-address limit (the rate limit below, the panel's login throttle) counts request.ip: it is the
    // socket's address unless TRUST_PROXY names the proxies whose X-Forwarded-For may say otherwise.
    trustProxy: proxyTrust(deps.config.trustProxy),
    clientErrorHandler,
    frameworkErrors,
    // Money has two places and quantities four: `multipleOf` must compare with a tolerance, or 19.99 (not exact in
    // binary) fails. The response serializer picks union branches with its own Ajv: same tolerance there.
    // `verbose` gives each error its schema and value, which the messages use to name what is allowed (validation-messages.ts).
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true,
        verbose: true,
        multipleOfPrecision: 6,
      },
    },
    serializerOpts: { ajv: { multipleOfPrecision: 6 } },
    schemaController: { compilersFactory: { buildSerializer, buildValidator: validation.buildValidator } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('validation', validation);
  app.decorateRequest('principal', null);
  // Hooks that never wait are written with `done`: an async one costs every request a promise and a turn.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  app.setErrorHandler(errorHandler);
  await app.register(httpMetrics(() => deps.metrics));
  await app.register(tracing);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Freight Fiscal and Driver-Payout API',
        version: '1.0.0',
        description:
          'Fiscal v1: CT-e, counter-CT-e, CIOT, MDF-e, NF-e, installments, registrations, regulator queries and toll pass. ' +
          'Every failure uses the envelope `{ error: { code, message, request_id, details? } }`.',
      },
      servers: [{ url: deps.config.publicUrl ?? '/' }],
      tags: OPENAPI_TAGS,
      components: {
        ...OPENAPI_COMPONENTS,
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A static API key (`fk_hml_…`/`fk_prd_…`) or an OAuth 2.0 access token (JWT)',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transformObject: (d) => ('openapiObject' in d ? completarDocumento(d.openapiObject) : d.swaggerObject),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(unreadBody);
  await app.register(textInput);
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 20, fields: 20, parts: 40 } });
  await app.register(rateLimit, {
    global: true,
    max: deps.config.rateLimitIpPerMin,
    timeWindow: 60_000,
    keyGenerator: (req) => `ip:${req.ip}`,
    errorResponseBuilder: (_req, ctx) =>
      new ApiError('limite_requisicoes', `too many requests from this address; retry in ${Math.ceil(ctx.ttl / 1000)} s`, undefined, {
        'Retry-After': String(Math.ceil(ctx.ttl / 1000)),
      }),
  });
  await app.register(methodNotAllowed);
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(envelope('nao_encontrado', `no route ${request.method} ${request.url.split('?')[0]}`, request.id));
  });

  await app.register(healthRoutes(deps));
  await app.register(metricsRoutes(deps));
  await app.register(oauthRoutes(deps));
  await app.register(
    async (v1) => {
      v1.addHook('onRoute', (route) => {
        if (route.url.startsWith('/v1/docs')) route.config = { ...(route.config ?? {}), public: true };
      });
      // The page's assets are addressed from the full prefix, so that `/v1/docs` (no slash) loads them too.
      await v1.register(swaggerUi, { routePrefix: '/docs', indexPrefix: '/v1', uiConfig: { docExpansion: 'list' } });
      v1.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
      await v1.register(authentication(deps));
      await v1.register(idempotency(deps));
      await v1.register(fiscalRoutes(deps), { prefix: '/fiscal' });
      await v1.register(carriersRoutes(deps), { prefix: '/carriers' });
      await v1.register(valePedagioRoutes(deps), { prefix: '/vale-pedagio' });
      await v1.register(contaOperacionalRoutes(deps), { prefix: '/conta-operacional' });
      await v1.register(consultasRoutes(deps));
      await v1.register(cadastrosRoutes(deps));
      await v1.register(auditoriaRoutes(deps));
      await v1.register(webhooksRoutes(deps));
    },
    { prefix: '/v1' },
  );
  return app;
}
