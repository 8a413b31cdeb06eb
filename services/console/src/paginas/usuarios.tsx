import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type ComponentChildren } from 'preact';
import { type PapelUsuario } from '@frete/contracts';
import { isPapelUsuario, Rejection } from '@frete/domain';
import { type UsuarioRow, usuariosDaEmpresa } from '@frete/projections';
import { avisoDe, contextoDe, csrfDe, html, redirecionar, sessaoDe } from '../contexto';
import { type ConsoleDeps } from '../deps';
import { paginaDeErro } from '../erros';
import { Campo, Erros, Formulario, Selecao, Tabela } from '../html/componentes';
import { Pagina } from '../html/layout';
import { dataHora } from './operacoes-comum';
import { podeAdministrar, type SessaoConsole } from '../sessao/sessao';

type Form = Record<string, unknown> | undefined;
const texto = (body: Form, campo: string, max = 320): string => {
  const v = body?.[campo];
  return typeof v === 'string' ? v.slice(0, max).trim() : '';
};

const ROTULO_PAPEL: Record<PapelUsuario, string> = { admin: 'Administrador', operador: 'Operador', leitura: 'Leitura' };
const OPCOES_PAPEL = (Object.keys(ROTULO_PAPEL) as PapelUsuario[]).map((p) => ({ valor: p, rotulo: ROTULO_PAPEL[p] }));

interface Estado {
  erros?: string[];
  email?: string;
  papel?: string;
  convidado?: { email: string; senha: string };
  /** A one-time password an admin just gave an existing user. */
  redefinida?: { email: string; senha: string };
  status?: number;
}

/** The company's users (admin only): the list, invitations, roles, deactivation. */
/** A one-time password shown once (a user invited or a password reset), with what the admin must do with it. */
function SenhaProvisoria(p: { senha: string; children: ComponentChildren }) {
  return (
    <div class="alerta" role="status">
      <p>{p.children}</p>
      <p>
        Senha provisória:{' '}
        <code class="segredo" aria-label="Senha provisória">
          {p.senha}
        </code>
      </p>
    </div>
  );
}

export function usuarios(app: FastifyInstance, deps: ConsoleDeps) {
  const negado = (request: FastifyRequest, reply: FastifyReply) =>
    paginaDeErro(request, reply, 403, 'Acesso negado', 'Só administradores da empresa gerenciam os usuários do painel.');

  async function pagina(request: FastifyRequest, reply: FastifyReply, sessao: SessaoConsole, e: Estado = {}) {
    const csrf = csrfDe(reply);
    if (!deps.readYourWrites.caughtUp(sessao.company_id)) await deps.readYourWrites.waitFor(sessao.company_id);
    const linhas = await usuariosDaEmpresa(deps.pool, sessao.company_id);
    return html(
      reply,
      <Pagina titulo="Usuários" sessao={sessao} csrf={csrf} area="/console/usuarios" aviso={avisoDe(request)}>
        {e.convidado && (
          <SenhaProvisoria senha={e.convidado.senha}>
            Usuário {e.convidado.email} criado. Entregue a senha provisória abaixo a ele: ela não será mostrada de novo e precisa ser
            trocada no primeiro acesso.
          </SenhaProvisoria>
        )}
        {e.redefinida && (
          <SenhaProvisoria senha={e.redefinida.senha}>
            Senha de {e.redefinida.email} redefinida e sessões encerradas. Entregue a senha provisória abaixo a ele: ela não será mostrada
            de novo e precisa ser trocada no próximo acesso.
          </SenhaProvisoria>
        )}
        <Tabela<UsuarioRow>
          legenda="Usuários da empresa"
          vazio="Nenhum usuário."
          linhas={linhas}
          colunas={[
            { titulo: 'E-mail', celula: (u) => u.email },
            { titulo: 'Papel', celula: (u) => ROTULO_PAPEL[u.papel] },
            { titulo: 'Situação', celula: (u) => (u.ativo ? (u.senha_temporaria ? 'Ativo (senha provisória)' : 'Ativo') : 'Desativado') },
            { titulo: 'Duas etapas', celula: (u) => (u.totp ? 'Sim' : 'Não') },
            { titulo: 'Último acesso', celula: (u) => dataHora(u.ultimo_acesso_em) },
            {
              titulo: 'Ações',
              celula: (u) =>
                u.ativo && u.usuario_id !== sessao.usuario_id ? (
                  <>
                    <Formulario
                      acao={`/console/usuarios/${u.usuario_id}/papel`}
                      csrf={csrf}
                      classe="em-linha"
                      rotulo={`Papel de ${u.email}`}
                    >
                      <Selecao nome="papel" rotulo={`Novo papel de ${u.email}`} opcoes={OPCOES_PAPEL} valor={u.papel} />
                      <button type="submit" class="secundario">
                        Alterar papel
                      </button>
                    </Formulario>
                    <Formulario
                      acao={`/console/usuarios/${u.usuario_id}/senha`}
                      csrf={csrf}
                      classe="em-linha"
                      rotulo={`Redefinir a senha de ${u.email}`}
                    >
                      <button type="submit" class="secundario" aria-label={`Redefinir a senha de ${u.email}`}>
                        Redefinir senha
                      </button>
                    </Formulario>
                    <Formulario
                      acao={`/console/usuarios/${u.usuario_id}/desativar`}
                      csrf={csrf}
                      classe="em-linha"
                      rotulo={`Desativar ${u.email}`}
                    >
                      <button type="submit" class="perigo" aria-label={`Desativar ${u.email}`}>
                        Desativar
                      </button>
                    </Formulario>
                  </>
                ) : null,
            },
          ]}
        />
        <section aria-labelledby="titulo-convidar">
          <h2 id="titulo-convidar">Convidar usuário</h2>
          <Erros erros={e.erros ?? []} />
          <Formulario acao="/console/usuarios" csrf={csrf} rotulo="Convidar usuário">
            <Campo nome="email" rotulo="E-mail do novo usuário" tipo="email" valor={e.email ?? ''} obrigatorio autocomplete="off" />
            <Selecao nome="papel" rotulo="Papel" opcoes={OPCOES_PAPEL} valor={e.papel ?? 'leitura'} obrigatorio />
            <button type="submit">Convidar</button>
          </Formulario>
        </section>
      </Pagina>,
      e.status ?? 200,
    );
  }

  app.get('/usuarios', async (request, reply) => {
    const sessao = sessaoDe(request);
    if (!podeAdministrar(sessao.papel)) return negado(request, reply);
    return pagina(request, reply, sessao);
  });

  app.post('/usuarios', async (request, reply) => {
    const sessao = sessaoDe(request);
    if (!podeAdministrar(sessao.papel)) return negado(request, reply);
    const body = request.body as Form;
    const email = texto(body, 'email');
    const papel = texto(body, 'papel', 20);
    if (!email || !isPapelUsuario(papel)) {
      return pagina(request, reply, sessao, {
        erros: ['Informe o e-mail e o papel (administrador, operador ou leitura).'],
        email,
        papel,
        status: 400,
      });
    }
    try {
      const criado = await deps.handlers.usuario.convidar(contextoDe(request, deps), { email, papel });
      return await pagina(request, reply, sessao, { convidado: { email: criado.email, senha: criado.senha_temporaria } });
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      const status = err.code === 'validacao' ? 400 : 422;
      return pagina(request, reply, sessao, { erros: [err.message], email, papel, status });
    }
  });

  /** A role change or a deactivation: the user's sessions end (they would carry the old role). */
  async function alterar(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, acao: 'papel' | 'desativar') {
    const sessao = sessaoDe(request);
    if (!podeAdministrar(sessao.papel)) return negado(request, reply);
    const ctx = contextoDe(request, deps);
    const id = request.params.id;
    try {
      if (acao === 'papel') {
        const papel = texto(request.body as Form, 'papel', 20);
        if (!isPapelUsuario(papel)) return await pagina(request, reply, sessao, { erros: ['Papel inválido.'], status: 400 });
        if (await deps.handlers.usuario.alterarPapel(ctx, id, papel)) await deps.sessoes.encerrarDoUsuario(id);
        return redirecionar(reply, '/console/usuarios', 'Papel alterado.');
      }
      if (await deps.handlers.usuario.desativar(ctx, id)) await deps.sessoes.encerrarDoUsuario(id);
      return redirecionar(reply, '/console/usuarios', 'Usuário desativado.');
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      if (err.code === 'nao_encontrado')
        return paginaDeErro(request, reply, 404, 'Usuário não encontrado', 'Este usuário não existe na sua empresa.');
      return pagina(request, reply, sessao, { erros: [err.message], status: err.code === 'validacao' ? 400 : 422 });
    }
  }

  // A one-time password for another user: shown once on this answer (no redirect would carry it), their sessions end.
  app.post<{ Params: { id: string } }>('/usuarios/:id/senha', async (request, reply) => {
    const sessao = sessaoDe(request);
    if (!podeAdministrar(sessao.papel)) return negado(request, reply);
    try {
      const r = await deps.handlers.usuario.redefinirSenha(contextoDe(request, deps), request.params.id);
      await deps.sessoes.encerrarDoUsuario(r.usuario_id);
      return await pagina(request, reply, sessao, { redefinida: { email: r.email, senha: r.senha_temporaria } });
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      if (err.code === 'nao_encontrado')
        return paginaDeErro(request, reply, 404, 'Usuário não encontrado', 'Este usuário não existe na sua empresa.');
      if (err.code === 'escopo_nao_habilitado') return negado(request, reply);
      return pagina(request, reply, sessao, { erros: [err.message], status: 422 });
    }
  });
  app.post<{ Params: { id: string } }>('/usuarios/:id/papel', (request, reply) => alterar(request, reply, 'papel'));
  app.post<{ Params: { id: string } }>('/usuarios/:id/desativar', (request, reply) => alterar(request, reply, 'desativar'));
}
