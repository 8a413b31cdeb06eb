import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type ResultadoLogin } from '@frete/application';
import { Rejection } from '@frete/domain';
import { avisoDe, contextoDe, csrfDe, html, redirecionar, sessaoDe } from '../contexto';
import { type ConsoleDeps } from '../deps';
import { Campo, Erros, Formulario } from '../html/componentes';
import { Pagina } from '../html/layout';
import { COOKIE_SESSAO, cookieSessao } from '../seguranca';
import { abrirSessao, COOKIE_LOGIN, destinoSeguro, guardarLoginPendente, loginPendente } from '../sessao/login';

type Form = Record<string, unknown> | undefined;
const texto = (body: Form, campo: string, max = 500): string => {
  const v = body?.[campo];
  return typeof v === 'string' ? v.slice(0, max) : '';
};
const voltaDe = (request: FastifyRequest): string => {
  const q = request.query as { volta?: unknown } | undefined;
  const b = request.body as Form;
  return destinoSeguro(b?.volta ?? q?.volta);
};
const comVolta = (path: string, volta: string) => (volta === '/console' ? path : `${path}?volta=${encodeURIComponent(volta)}`);

function FormEntrar(p: { csrf: string; volta: string; email: string; erros: string[] }) {
  return (
    <>
      <Erros erros={p.erros} />
      <Formulario acao="/console/entrar" csrf={p.csrf} rotulo="Entrar no painel">
        <input type="hidden" name="volta" value={p.volta} />
        <Campo nome="email" rotulo="E-mail" tipo="email" valor={p.email} obrigatorio autocomplete="username" />
        <Campo nome="senha" rotulo="Senha" tipo="password" obrigatorio autocomplete="current-password" />
        <button type="submit">Entrar</button>
      </Formulario>
    </>
  );
}

function FormCodigo(p: { csrf: string; volta: string; erros: string[] }) {
  return (
    <>
      <Erros erros={p.erros} />
      <p>Digite o código de 6 dígitos do seu aplicativo autenticador.</p>
      <Formulario acao={comVolta('/console/entrar/codigo', p.volta)} csrf={p.csrf} rotulo="Código de verificação">
        <Campo
          nome="codigo"
          rotulo="Código"
          obrigatorio
          autocomplete="one-time-code"
          atributos={{ inputmode: 'numeric', pattern: '[0-9 ]{6,7}', maxlength: 7 }}
        />
        <button type="submit">Confirmar</button>
      </Formulario>
    </>
  );
}

function FormNovaSenha(p: { csrf: string; volta: string; erros: string[] }) {
  return (
    <>
      <Erros erros={p.erros} />
      <p>Sua senha é provisória. Escolha uma senha nova, de pelo menos 12 caracteres, para continuar.</p>
      <Formulario acao={comVolta('/console/entrar/nova-senha', p.volta)} csrf={p.csrf} rotulo="Nova senha">
        <Campo nome="nova" rotulo="Nova senha" tipo="password" obrigatorio autocomplete="new-password" atributos={{ minlength: 12 }} />
        <Campo
          nome="confirmacao"
          rotulo="Repita a nova senha"
          tipo="password"
          obrigatorio
          autocomplete="new-password"
          atributos={{ minlength: 12 }}
        />
        <button type="submit">Salvar senha e entrar</button>
      </Formulario>
    </>
  );
}

/** Too many failed attempts: nothing was checked. */
function limitado(reply: FastifyReply, segundos: number) {
  reply.header('Retry-After', String(segundos));
  return html(
    reply,
    <Pagina titulo="Muitas tentativas" sessao={null} csrf="">
      <p>Muitas tentativas de entrada sem sucesso. Aguarde {Math.ceil(segundos / 60)} minuto(s) e tente de novo.</p>
      <p>
        <a href="/console/entrar">Voltar à entrada</a>
      </p>
    </Pagina>,
    429,
  );
}

/** Login (e-mail and password, then a new password or a TOTP code when due) and logout. */
export function entrar(app: FastifyInstance, deps: ConsoleDeps) {
  const semSessao = { config: { semSessao: true } };

  const paginaEntrar = (reply: FastifyReply, request: FastifyRequest, email: string, erros: string[], status = 200) =>
    html(
      reply,
      <Pagina titulo="Entrar" sessao={null} csrf={csrfDe(reply)} aviso={avisoDe(request)}>
        <FormEntrar csrf={csrfDe(reply)} volta={voltaDe(request)} email={email} erros={erros} />
      </Pagina>,
      status,
    );

  /** What a step's outcome leads to: the next step, or the session. */
  async function seguir(reply: FastifyReply, r: Extract<ResultadoLogin, { tipo: 'aceito' }>, volta: string, segundoFator: boolean) {
    const u = r.usuario;
    if (u.senha_temporaria) {
      guardarLoginPendente(reply, u.email, 'senha', deps.clock());
      return reply.redirect(comVolta('/console/entrar/nova-senha', volta), 303);
    }
    if (u.totp && !segundoFator) {
      guardarLoginPendente(reply, u.email, 'codigo', deps.clock());
      return reply.redirect(comVolta('/console/entrar/codigo', volta), 303);
    }
    await abrirSessao(reply, deps, u, segundoFator);
    return reply.redirect(volta, 303);
  }

  app.get('/entrar', semSessao, async (request, reply) => paginaEntrar(reply, request, '', []));

  app.post('/entrar', semSessao, async (request, reply) => {
    const body = request.body as Form;
    const email = texto(body, 'email', 320).trim();
    const senha = texto(body, 'senha', 1000);
    if (!email || !senha) return paginaEntrar(reply, request, email, ['Informe o e-mail e a senha.'], 400);
    const r = await deps.handlers.usuario.autenticar(email, senha, request.ip);
    if (r.tipo === 'limitado') return limitado(reply, r.tentar_apos_s);
    if (r.tipo === 'recusado') return paginaEntrar(reply, request, email, ['E-mail ou senha incorretos.'], 401);
    return seguir(reply, r, voltaDe(request), false);
  });

  const paginaCodigo = (reply: FastifyReply, request: FastifyRequest, erros: string[], status = 200) =>
    html(
      reply,
      <Pagina titulo="Verificação em duas etapas" sessao={null} csrf={csrfDe(reply)}>
        <FormCodigo csrf={csrfDe(reply)} volta={voltaDe(request)} erros={erros} />
      </Pagina>,
      status,
    );

  app.get('/entrar/codigo', semSessao, async (request, reply) => {
    if (!loginPendente(request, 'codigo', deps.clock())) return reply.redirect('/console/entrar', 303);
    return paginaCodigo(reply, request, []);
  });

  app.post('/entrar/codigo', semSessao, async (request, reply) => {
    const pendente = loginPendente(request, 'codigo', deps.clock());
    if (!pendente) return redirecionar(reply, '/console/entrar', 'A entrada expirou. Entre de novo.');
    const codigo = texto(request.body as Form, 'codigo', 20);
    if (!codigo.trim()) return paginaCodigo(reply, request, ['Informe o código.'], 400);
    const r = await deps.handlers.usuario.conferirCodigo(pendente.email, codigo, request.ip);
    if (r.tipo === 'limitado') return limitado(reply, r.tentar_apos_s);
    if (r.tipo === 'recusado') return paginaCodigo(reply, request, ['Código incorreto.'], 401);
    return seguir(reply, r, voltaDe(request), true);
  });

  const paginaNovaSenha = (reply: FastifyReply, request: FastifyRequest, erros: string[], status = 200) =>
    html(
      reply,
      <Pagina titulo="Troque a sua senha" sessao={null} csrf={csrfDe(reply)}>
        <FormNovaSenha csrf={csrfDe(reply)} volta={voltaDe(request)} erros={erros} />
      </Pagina>,
      status,
    );

  app.get('/entrar/nova-senha', semSessao, async (request, reply) => {
    if (!loginPendente(request, 'senha', deps.clock())) return reply.redirect('/console/entrar', 303);
    return paginaNovaSenha(reply, request, []);
  });

  app.post('/entrar/nova-senha', semSessao, async (request, reply) => {
    const pendente = loginPendente(request, 'senha', deps.clock());
    if (!pendente) return redirecionar(reply, '/console/entrar', 'A entrada expirou. Entre de novo.');
    const body = request.body as Form;
    const nova = texto(body, 'nova', 1000);
    if (nova !== texto(body, 'confirmacao', 1000)) return paginaNovaSenha(reply, request, ['As duas senhas não são iguais.'], 400);
    try {
      const usuario = await deps.handlers.usuario.definirSenhaInicial(pendente.email, nova);
      return await seguir(reply, { tipo: 'aceito', usuario }, voltaDe(request), false);
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      const erros = err.details?.fields?.map((f) => f.message) ?? [err.message];
      return paginaNovaSenha(reply, request, erros, err.code === 'validacao' ? 400 : 422);
    }
  });

  app.post('/sair', async (request, reply) => {
    const sessao = sessaoDe(request);
    await deps.sessoes.encerrar(sessao.sessao_id);
    try {
      await deps.handlers.usuario.sessaoEncerrada(contextoDe(request, deps), sessao.email, sessao.sessao_id);
    } catch (err) {
      // A session of a user that no longer exists still ends.
      if (!(err instanceof Rejection)) throw err;
    }
    reply.clearCookie(COOKIE_SESSAO, cookieSessao);
    reply.clearCookie(COOKIE_LOGIN, cookieSessao);
    return redirecionar(reply, '/console/entrar', 'Você saiu do painel.');
  });
}
