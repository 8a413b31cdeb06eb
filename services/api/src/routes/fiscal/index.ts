import { type FastifyPluginAsync } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ApiError } from '../../errors';
import { type ApiDeps } from '../../deps';
import { statusRoutes } from './status';
import { configuracaoRoutes } from './configuracao';
import { certificadoRoutes } from './certificado';
import { nfeRoutes } from './nfe';
import { caixaCteRoutes } from './caixa-cte';
import { cteEmitidosRoutes } from './cte-emitidos';
import { cteRoutes } from './cte';
import { dacteRoutes } from './dacte';
import { cteRepasseRoutes } from './cte-repasse';
import { cteEmissaoRoutes } from './cte-emissao';
import { autorizacoesRoutes } from './autorizacoes';
import { veiculosRoutes } from './veiculos';
import { motoristasRoutes } from './motoristas';
import { regrasTributacaoRoutes } from './regras-tributacao';
import { ctePreviaRoutes } from './cte-previa';
import { mdfeRoutes } from './mdfe';
import { mdfePreviaRoutes } from './mdfe-previa';
import { ciotRoutes } from './ciot';
import { cteCiotRoutes } from './cte-ciot';
import { mdfeEventosRoutes } from './mdfe-eventos';
import { damdfeRoutes } from './damdfe';
import { cteEventosRoutes } from './cte-eventos';
import { contraCteRoutes } from './contra-cte';
import { loteRoutes } from './lote';
import { distribuicaoRoutes } from './distribuicao';

/** Everything under /v1/fiscal: scope `fiscal`, and a per-carrier rate limit (spec section 8). */
export const fiscalRoutes =
  (deps: ApiDeps): FastifyPluginAsync =>
  async (app) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), scope: 'fiscal' };
    });
    // Operations that reach the fiscal authority (issue, counter-CT-e single and in batches, polling, the documents'
    // events). Ruling 7: without a contracted provider they answer 503 `provedor_indisponivel` at once, and nothing is
    // recorded as if it could be sent.
    // A consultation of the national distribution too: FISCAL_AUTHORITY chooses its service with the authority's (one
    // choice), so without a provider there is none to consult either.
    const reachesAuthority =
      /\/(cte|mdfe)\/:[a-z_]+\/(emissao|consulta|eventos\/)|\/cte\/contra$|\/cte-subcontratacao\/lote$|\/distribuicao\/consultas$/;
    // Before body validation: without a provider no body could be sent anyway.
    app.addHook('preValidation', async (request) => {
      if (!deps.emissorCte.disponivel && reachesAuthority.test(request.routeOptions.url ?? '')) {
        throw new ApiError('provedor_indisponivel', 'no fiscal provider is contracted for this environment yet');
      }
    });
    await app.register(rateLimit, {
      global: true,
      hook: 'preHandler',
      max: deps.config.rateLimitFiscalPerMin,
      timeWindow: 60_000,
      keyGenerator: (req) => `carrier:${req.principal?.companyId ?? req.ip}`,
      errorResponseBuilder: (_req, ctx) =>
        new ApiError(
          'limite_requisicoes',
          `fiscal rate limit of ${ctx.max} requests per minute reached for this carrier; retry in ${Math.ceil(ctx.ttl / 1000)} s`,
          undefined,
          {
            'Retry-After': String(Math.ceil(ctx.ttl / 1000)),
          },
        ),
    });
    await app.register(statusRoutes(deps));
    await app.register(configuracaoRoutes(deps));
    await app.register(certificadoRoutes(deps));
    await app.register(nfeRoutes(deps));
    await app.register(caixaCteRoutes(deps));
    await app.register(cteEmitidosRoutes(deps));
    await app.register(cteRoutes(deps));
    await app.register(dacteRoutes(deps));
    await app.register(cteRepasseRoutes(deps));
    await app.register(cteEmissaoRoutes(deps));
    await app.register(autorizacoesRoutes(deps));
    await app.register(veiculosRoutes(deps));
    await app.register(motoristasRoutes(deps));
    await app.register(regrasTributacaoRoutes(deps));
    await app.register(ctePreviaRoutes(deps));
    await app.register(mdfeRoutes(deps));
    await app.register(mdfePreviaRoutes(deps));
    await app.register(mdfeEventosRoutes(deps));
    await app.register(damdfeRoutes(deps));
    await app.register(cteEventosRoutes(deps));
    await app.register(contraCteRoutes(deps));
    await app.register(loteRoutes(deps));
    await app.register(ciotRoutes(deps));
    await app.register(cteCiotRoutes(deps));
    await app.register(distribuicaoRoutes(deps));
  };
