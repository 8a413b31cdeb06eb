import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Rejection } from '@frete/domain';
import { usuarioPorId } from '@frete/projections';
import { avisoDe, contextoDe, csrfDe, html, redirecionar, sessaoDe } from '../contexto';
import { type ConsoleDeps } from '../deps';
import { Campo, Erros, Formulario } from '../html/componentes';
import { Pagina } from '../html/layout';

type Form = Record<string, unknown> | undefined;
const texto = (body: Form, campo: string, max = 1000): string => {
  const v = body?.[campo];
  return typeof v === 'string' ? v.slice(0, max) : '';
};
const mensagens = (err: Rejection) => err.details?.fields?.map((f) => f.message) ?? [err.message];
const statusDe = (err: Rejection) =>
  err.code === 'validacao' ? 400 : err.code === 'nao_encontrado' ? 404 : err.code === 'limite_requisicoes' ? 429 : 422;

interface Provisionamento {
  segredo: string;
  uri: string;
  svg: string;
}

/** The user's own account: their password and their second factor. */
export function conta(app: FastifyInstance, deps: ConsoleDeps) {
  async function pagina(
    request: FastifyRequest,
    reply: FastifyReply,
    o: { errosSenha?: string[]; errosTotp?: string[]; provisionamento?: Provisionamento; status?: number } = {},
  ) {
    const sessao = sessaoDe(request);
    const csrf = csrfDe(reply);
    const usuario = await usuarioPorId(deps.pool, sessao.company_id, sessao.usuario_id);
    const totp = usuario?.totp === true;
    return html(
      reply,
      <Pagina titulo="Minha conta" sessao={sessao} csrf={csrf} area="/console/conta" aviso={avisoDe(request)}>
        <section aria-labelledby="titulo-senha">
          <h2 id="titulo-senha">Trocar senha</h2>
          <Erros erros={o.errosSenha ?? []} />
          <Formulario acao="/console/conta/senha" csrf={csrf} rotulo="Trocar senha">
            <Campo nome="atual" rotulo="Senha atual" tipo="password" obrigatorio autocomplete="current-password" />
            <Campo
              nome="nova"
              rotulo="Nova senha"
              tipo="password"
              obrigatorio
              autocomplete="new-password"
              ajuda="Pelo menos 12 caracteres."
            />
            <Campo nome="confirmacao" rotulo="Repita a nova senha" tipo="password" obrigatorio autocomplete="new-password" />
            <button type="submit">Trocar senha</button>
          </Formulario>
          <p class="ajuda">Ao trocar a senha, as suas outras sessões abertas são encerradas.</p>
        </section>
        <section aria-labelledby="titulo-totp">
          <h2 id="titulo-totp">Verificação em duas etapas</h2>
          <Erros erros={o.errosTotp ?? []} />
          {totp ? (
            <>
              <p>Ativa: ao entrar, o painel pede o código do seu aplicativo autenticador.</p>
              <Formulario acao="/console/conta/totp/desativar" csrf={csrf} rotulo="Desativar verificação em duas etapas">
                <Campo nome="codigo" rotulo="Código atual" obrigatorio autocomplete="one-time-code" atributos={{ inputmode: 'numeric' }} />
                <button type="submit" class="perigo">
                  Desativar verificação em duas etapas
                </button>
              </Formulario>
            </>
          ) : o.provisionamento ? (
            <>
              <p>Leia o código QR com o seu aplicativo autenticador, ou digite a chave abaixo nele. Depois confirme um código.</p>
              <div
                class="qr"
                role="img"
                aria-label="Código QR da verificação em duas etapas"
                dangerouslySetInnerHTML={{ __html: o.provisionamento.svg }}
              />
              <p>
                Chave:{' '}
                <code class="segredo" aria-label="Chave secreta">
                  {o.provisionamento.segredo}
                </code>
              </p>
              <p>
                Endereço: <code class="segredo">{o.provisionamento.uri}</code>
              </p>
              <Formulario acao="/console/conta/totp/ativar" csrf={csrf} rotulo="Confirmar verificação em duas etapas">
                <Campo
                  nome="codigo"
                  rotulo="Código do aplicativo"
                  obrigatorio
                  autocomplete="one-time-code"
                  atributos={{ inputmode: 'numeric' }}
                />
                <button type="submit">Ativar verificação em duas etapas</button>
              </Formulario>
            </>
          ) : (
            <>
              <p>Desativada. Com ela, além da senha o painel pede um código de um aplicativo autenticador.</p>
              <Formulario acao="/console/conta/totp/iniciar" csrf={csrf} rotulo="Configurar verificação em duas etapas">
                <button type="submit">Configurar verificação em duas etapas</button>
              </Formulario>
            </>
          )}
        </section>
      </Pagina>,
      o.status ?? 200,
    );
  }

  app.get('/conta', async (request, reply) => pagina(request, reply));

  app.post('/conta/senha', async (request, reply) => {
    const sessao = sessaoDe(request);
    const body = request.body as Form;
    const nova = texto(body, 'nova');
    if (nova !== texto(body, 'confirmacao'))
      return pagina(request, reply, { errosSenha: ['As duas senhas novas não são iguais.'], status: 400 });
    try {
      await deps.handlers.usuario.trocarSenha(contextoDe(request, deps), sessao.email, texto(body, 'atual'), nova, request.ip);
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      return pagina(request, reply, { errosSenha: mensagens(err), status: statusDe(err) });
    }
    // Whoever else held a session of this user is out; this one stays.
    await deps.sessoes.encerrarDoUsuario(sessao.usuario_id, sessao.sessao_id);
    return redirecionar(reply, '/console/conta', 'Senha trocada. As suas outras sessões foram encerradas.');
  });

  app.post('/conta/totp/iniciar', async (request, reply) => {
    const sessao = sessaoDe(request);
    try {
      const provisionamento = await deps.handlers.usuario.iniciarTotp(contextoDe(request, deps), sessao.email);
      return await pagina(request, reply, { provisionamento });
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      return pagina(request, reply, { errosTotp: mensagens(err), status: statusDe(err) });
    }
  });

  app.post('/conta/totp/ativar', async (request, reply) => {
    const sessao = sessaoDe(request);
    try {
      await deps.handlers.usuario.ativarTotp(contextoDe(request, deps), sessao.email, texto(request.body as Form, 'codigo', 20));
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      // The same QR code again, to try another code of it.
      const provisionamento = (await deps.handlers.usuario.totpPendente(contextoDe(request, deps), sessao.email)) ?? undefined;
      return pagina(request, reply, { errosTotp: mensagens(err), provisionamento, status: statusDe(err) });
    }
    return redirecionar(reply, '/console/conta', 'Verificação em duas etapas ativada.');
  });

  app.post('/conta/totp/desativar', async (request, reply) => {
    const sessao = sessaoDe(request);
    try {
      await deps.handlers.usuario.desativarTotp(contextoDe(request, deps), sessao.email, texto(request.body as Form, 'codigo', 20));
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      return pagina(request, reply, { errosTotp: mensagens(err), status: statusDe(err) });
    }
    return redirecionar(reply, '/console/conta', 'Verificação em duas etapas desativada.');
  });
}
