import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type CredentialKind, type Scope, SCOPES } from '@frete/contracts';
import { type IssuedCredential } from '@frete/application';
import { credenciaisDaEmpresa, credencialDaEmpresa, type CredencialRow } from '@frete/projections';
import { avisoDe, contextoDe, csrfDe, html, redirecionar, sessaoDe } from '../../contexto';
import { type ConsoleDeps } from '../../deps';
import { type SessaoConsole } from '../../sessao/sessao';
import { paginaDeErro } from '../../erros';
import { Erros, Formulario, Marcacoes, Selecao, Tabela } from '../../html/componentes';
import { Segredo } from './segredo';
import { Pagina } from '../../html/layout';
import { lista, NOMES_AMBIENTE, quando, statusDaRecusa, texto } from './formulario';
import { type Rejection } from '@frete/domain';
import { mensagemDe } from '../../mensagens';

const AREA = '/console/integracao';

const TIPOS: { valor: CredentialKind; rotulo: string }[] = [
  { valor: 'api-key', rotulo: 'Chave estática (API key)' },
  { valor: 'oauth', rotulo: 'Cliente OAuth 2.0 (client_credentials)' },
];
const nomeDoTipo = (k: CredentialKind) => (k === 'oauth' ? 'Cliente OAuth' : 'Chave estática');

/** What each scope opens (spec, "Scopes"); the value posted is the scope's own name. */
const ESCOPOS: Record<Scope, string> = {
  fiscal: 'fiscal — CT-e, MDF-e e configuração fiscal (/fiscal/*)',
  operacao: 'operacao — liberar e pagar parcelas, vale-pedágio',
  cadastros: 'cadastros — convites, agregados, chave PIX',
  consultas: 'consultas — RNTRC e frota',
  auditoria: 'auditoria — histórico e trilha de eventos',
  webhooks: 'webhooks — endpoints e entregas',
};

interface Preenchido {
  tipo: string;
  escopos: string[];
  erros: string[];
  /** A refusal's code and English message, for support. */
  detalhe?: string;
}
const VAZIO: Preenchido = { tipo: 'api-key', escopos: [], erros: [] };

const semEnvio = (r: FastifyRequest, reply: FastifyReply) =>
  paginaDeErro(r, reply, 404, 'Credencial não encontrada', 'Esta credencial não existe ou não é da sua empresa.');

export function credenciais(app: FastifyInstance, deps: ConsoleDeps) {
  const ambiente = deps.config.environment;

  const paginaLista = async (request: FastifyRequest, reply: FastifyReply, form: Preenchido, status = 200) => {
    const sessao = sessaoDe(request);
    const linhas = await credenciaisDaEmpresa(deps.pool, sessao.company_id);
    const csrf = csrfDe(reply);
    return html(
      reply,
      <Pagina titulo="Integração" sessao={sessao} csrf={csrf} area={AREA} aviso={avisoDe(request)}>
        <p>
          Credenciais para o seu sistema chamar a API e endpoints que recebem os eventos (
          <a href="/console/integracao/webhooks">Webhooks</a>).
        </p>
        <h2 id="credenciais">Credenciais da API</h2>
        <Tabela<CredencialRow>
          legenda="Credenciais da empresa"
          vazio="Nenhuma credencial emitida ainda."
          linhas={linhas}
          colunas={[
            { titulo: 'Tipo', celula: (c) => nomeDoTipo(c.kind) },
            { titulo: 'Ambiente', celula: (c) => NOMES_AMBIENTE[c.environment] },
            { titulo: 'Escopos', celula: (c) => (c.scopes.length > 0 ? c.scopes.join(', ') : 'nenhum') },
            { titulo: 'Identificação', celula: (c) => <code>{c.kind === 'oauth' ? '—' : `${c.hint}…`}</code> },
            { titulo: 'Client ID', celula: (c) => (c.client_id ? <code>{c.client_id}</code> : '—') },
            { titulo: 'Criada em', celula: (c) => quando(c.issued_at) },
            {
              titulo: 'Situação',
              celula: (c) => <span class="situacao">{c.status === 'active' ? 'Ativa' : `Revogada em ${quando(c.revoked_at)}`}</span>,
            },
            {
              titulo: 'Ações',
              celula: (c) =>
                c.status === 'active' ? (
                  <Formulario acao={`${AREA}/credenciais/${c.credential_id}/revogar`} csrf={csrf} classe="em-linha">
                    <button type="submit" class="perigo" aria-label={`Revogar ${c.client_id ?? c.hint}`}>
                      Revogar
                    </button>
                  </Formulario>
                ) : (
                  '—'
                ),
            },
          ]}
        />
        <h2 id="nova-credencial">Nova credencial</h2>
        <Erros erros={form.erros} detalhe={form.detalhe} />
        <Formulario acao={`${AREA}/credenciais`} csrf={csrf} rotulo="Nova credencial">
          <Selecao nome="tipo" rotulo="Tipo" opcoes={TIPOS} valor={form.tipo} obrigatorio />
          {/* A deployment serves one environment: its credentials are the only ones it can issue. */}
          <Selecao nome="ambiente" rotulo="Ambiente" opcoes={[{ valor: ambiente, rotulo: NOMES_AMBIENTE[ambiente] }]} valor={ambiente} />
          <Marcacoes
            nome="escopos"
            legenda="Escopos"
            opcoes={SCOPES.map((s) => ({ valor: s, rotulo: ESCOPOS[s] }))}
            marcados={form.escopos}
          />
          <button type="submit">Criar credencial</button>
        </Formulario>
      </Pagina>,
      status,
    );
  };

  app.get('/', (request, reply) => paginaLista(request, reply, VAZIO));

  app.post('/credenciais', async (request, reply) => {
    const form: Preenchido = { tipo: texto(request, 'tipo'), escopos: lista(request, 'escopos'), erros: [] };
    if (form.tipo !== 'api-key' && form.tipo !== 'oauth') form.erros.push('Escolha o tipo: chave estática ou cliente OAuth.');
    if (texto(request, 'ambiente') !== ambiente) form.erros.push(`Este painel emite credenciais só para ${NOMES_AMBIENTE[ambiente]}.`);
    const estranhos = form.escopos.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (estranhos.length > 0) form.erros.push(`Escopo desconhecido: ${estranhos.join(', ').slice(0, 100)}.`);
    if (form.escopos.length === 0) form.erros.push('Marque ao menos um escopo: uma credencial sem escopo não abre nada.');
    if (form.erros.length > 0)
      return paginaLista(request, reply, { ...form, escopos: form.escopos.filter((s) => !estranhos.includes(s)) }, 400);

    const ctx = contextoDe(request, deps);
    let emitida: IssuedCredential;
    try {
      ({ resultado: emitida } = await deps.handlers.credential.emitir(ctx, { kind: form.tipo as CredentialKind, scopes: form.escopos }));
    } catch (err) {
      const status = statusDaRecusa(err);
      return paginaLista(
        request,
        reply,
        { ...form, erros: [mensagemDe((err as Rejection).code)], detalhe: `${(err as Rejection).code}: ${(err as Rejection).message}` },
        status === 404 ? 422 : status,
      );
    }
    // The secret must work the moment it is shown: the API authenticates from the read model.
    await deps.readYourWrites.waitFor(ctx.companyId);
    return html(reply, <SegredoUnico sessao={sessaoDe(request)} csrf={csrfDe(reply)} emitida={emitida} />, 201);
  });

  app.post<{ Params: { id: string } }>('/credenciais/:id/revogar', async (request, reply) => {
    const sessao = sessaoDe(request);
    const credencial = await credencialDaEmpresa(deps.pool, sessao.company_id, request.params.id);
    if (!credencial) return semEnvio(request, reply);
    if (texto(request, 'confirmar') !== 'sim') {
      const csrf = csrfDe(reply);
      const nome = credencial.client_id ?? `${credencial.hint}…`;
      return html(
        reply,
        <Pagina titulo="Revogar credencial" sessao={sessao} csrf={csrf} area={AREA}>
          <p class="alerta">
            {`Revogar ${nomeDoTipo(credencial.kind).toLowerCase()} ${nome}? Os sistemas que a usam passam a receber 401 na hora, e isto não pode ser desfeito.`}
          </p>
          <Formulario acao={`${AREA}/credenciais/${credencial.credential_id}/revogar`} csrf={csrf} rotulo="Confirmar revogação">
            <input type="hidden" name="confirmar" value="sim" />
            <button type="submit" class="perigo">
              Confirmar revogação
            </button>{' '}
            <a class="botao secundario" href={AREA}>
              Cancelar
            </a>
          </Formulario>
        </Pagina>,
      );
    }
    const ctx = contextoDe(request, deps);
    try {
      await deps.handlers.credential.revogar(ctx, credencial.credential_id);
    } catch (err) {
      if (statusDaRecusa(err) === 404) return semEnvio(request, reply);
      throw err;
    }
    // A revoked key must be refused by the API as soon as the admin sees it revoked.
    await deps.readYourWrites.waitFor(ctx.companyId);
    return redirecionar(reply, AREA, 'Credencial revogada.');
  });
}

/** The only page that ever shows the secret: the answer to the POST that created it, never stored, never cached. */
function SegredoUnico({ sessao, csrf, emitida }: { sessao: SessaoConsole; csrf: string; emitida: IssuedCredential }) {
  return (
    <Pagina titulo="Credencial criada" sessao={sessao} csrf={csrf} area={AREA}>
      <p class="alerta" role="alert">
        Copie agora e guarde em lugar seguro: este segredo não será mostrado de novo. Se perdê-lo, revogue esta credencial e crie outra.
      </p>
      <dl>
        <dt>Tipo</dt>
        <dd>{nomeDoTipo(emitida.kind)}</dd>
        <dt>Ambiente</dt>
        <dd>{NOMES_AMBIENTE[emitida.environment]}</dd>
        <dt>Escopos</dt>
        <dd>{emitida.scopes.join(', ')}</dd>
      </dl>
      {emitida.kind === 'api-key' ? (
        <Segredo nome="api_key" rotulo="Chave da API" valor={emitida.api_key} />
      ) : (
        <>
          <Segredo nome="client_id" rotulo="client_id" valor={emitida.client_id} />
          <Segredo nome="client_secret" rotulo="client_secret" valor={emitida.client_secret} />
        </>
      )}
      <p>
        <a href={AREA}>Voltar à integração</a>
      </p>
    </Pagina>
  );
}
