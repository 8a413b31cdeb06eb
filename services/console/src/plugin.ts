import './fastify-types';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import { ATIVOS } from './assets';
import { type ConsoleDeps } from './deps';
import { paginaDeErro, tratarErro } from './erros';
import { CABECALHOS_SEGURANCA, chaveDosCookies, COOKIE_SESSAO } from './seguranca';
import { CSRF_CAMPO } from './html/componentes';
import { paginas } from './paginas';

const LOGIN = '/console/entrar';

/** The token a form or an htmx request sends back: a form field, the header htmx sets, or (multipart) the query. */
function tokenDoPedido(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const candidates = [body?.[CSRF_CAMPO], request.headers['x-csrf-token'], query?.[CSRF_CAMPO]];
  return candidates.find((c): c is string => typeof c === 'string');
}

function semSessao(request: FastifyRequest, reply: FastifyReply) {
  if (request.method === 'GET' && !request.headers['hx-request']) {
    const volta = request.url.startsWith('/console') && request.url !== '/console/sair' ? `?volta=${encodeURIComponent(request.url)}` : '';
    return reply.redirect(`${LOGIN}${volta}`, 303);
  }
  // htmx follows this header with a full navigation to the login page.
  reply.header('HX-Redirect', LOGIN);
  return paginaDeErro(request, reply, 401, 'Sessão encerrada', 'Sua sessão terminou. Entre de novo para continuar.');
}

/**
 * The company panel under /console: server-rendered pages (preact to HTML) and htmx for the live parts. Its own
 * session cookie and CSRF tokens; an API credential does not open it, and its cookie is nothing to the API.
 */
export function consolePlugin(deps: ConsoleDeps) {
  return async (app: FastifyInstance) => {
    app.decorateRequest('sessao', null);
    // Pages, not the API: nothing of them goes into the OpenAPI document.
    app.addHook('onRoute', (route) => {
      // `hide` is @fastify/swagger's (the API registers it): an extra key to Fastify's own schema type.
      route.schema = Object.assign({}, route.schema, { hide: true });
    });
    await app.register(cookie, { secret: chaveDosCookies(deps.config.secretsKey) });
    await app.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: 'frete_csrf',
      cookieOpts: { signed: true, httpOnly: true, secure: true, sameSite: 'strict', path: '/console' },
      getToken: tokenDoPedido,
    });
    app.setErrorHandler(tratarErro);
    app.setNotFoundHandler((request, reply) =>
      paginaDeErro(request, reply, 404, 'Página não encontrada', 'Esta página não existe no painel.'),
    );

    app.addHook('onRequest', async (request, reply) => {
      for (const [name, value] of Object.entries(CABECALHOS_SEGURANCA)) reply.header(name, value);
      if (request.routeOptions.config.semSessao) return;
      const sessao = await deps.sessoes.ler(request.cookies[COOKIE_SESSAO]);
      if (!sessao) return semSessao(request, reply);
      request.sessao = sessao;
      reply.header('Cache-Control', 'no-store');
    });
    // Every state change is a POST, and every POST carries the form token.
    app.addHook('preHandler', (request, reply, done) => {
      if (request.method === 'GET' || request.method === 'HEAD') return done();
      app.csrfProtection(request, reply, done);
    });
    // A read after the user's own write sees it, as the API's GETs do.
    app.addHook('preHandler', (request, _reply, done) => {
      const companyId = request.sessao?.company_id;
      if (request.method !== 'GET' || !companyId || deps.readYourWrites.caughtUp(companyId)) return done();
      deps.readYourWrites.waitFor(companyId).then(() => done(), done);
    });

    app.get<{ Params: { nome: string } }>('/assets/:nome', { config: { semSessao: true } }, async (request, reply) => {
      const ativo = ATIVOS.get(request.params.nome);
      if (!ativo) return paginaDeErro(request, reply, 404, 'Arquivo não encontrado', 'Este arquivo não existe no painel.');
      return reply.type(ativo.tipo).header('Cache-Control', 'public, max-age=31536000, immutable').send(ativo.corpo);
    });

    for (const registrar of paginas) await registrar(app, deps);
  };
}
