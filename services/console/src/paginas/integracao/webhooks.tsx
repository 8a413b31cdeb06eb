import { randomUUID } from 'node:crypto';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type EntregaWebhook, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX } from '@frete/contracts';
import { webhookPorId, type WebhookRow, webhooksList } from '@frete/projections';
import { avisoDe, contextoDe, csrfDe, html, redirecionar, sessaoDe } from '../../contexto';
import { type ConsoleDeps } from '../../deps';
import { paginaDeErro } from '../../erros';
import { Campo, Erros, Formulario, Marcacoes, ProximaPagina, Tabela } from '../../html/componentes';
import { Pagina } from '../../html/layout';
import { fragmento } from '../../html/render';
import { type SessaoConsole } from '../../sessao/sessao';
import { lista, quando, statusDaRecusa, texto } from './formulario';
import { Segredo } from './segredo';
import { type Rejection } from '@frete/domain';
import { mensagemDe } from '../../mensagens';

const AREA = '/console/integracao';
const BASE = `${AREA}/webhooks`;
/** The panel lists every endpoint of a company on one page: there are few. */
const MAX_ENDPOINTS = 200;
const ENTREGAS_POR_PAGINA = 50;
const DESCRICAO_MAX = 200;

interface Preenchido {
  url: string;
  descricao: string;
  eventos: string[];
  erros: string[];
  /** A refusal's code and English message, for support. */
  detalhe?: string;
}
const VAZIO: Preenchido = { url: '', descricao: '', eventos: [], erros: [] };

const SITUACAO_ENTREGA: Record<EntregaWebhook['status'], string> = { pendente: 'Pendente', entregue: 'Entregue', falhou: 'Falhou' };

const naoEncontrado = (r: FastifyRequest, reply: FastifyReply) =>
  paginaDeErro(r, reply, 404, 'Webhook não encontrado', 'Este endpoint não existe ou não é da sua empresa.');

const situacao = (w: WebhookRow) => (w.ativo ? 'Ativo' : `Desativado em ${quando(w.desativado_em)}`);

export function webhooks(app: FastifyInstance, deps: ConsoleDeps) {
  const h = deps.handlers.webhook;

  const paginaLista = async (request: FastifyRequest, reply: FastifyReply, form: Preenchido, status = 200) => {
    const sessao = sessaoDe(request);
    const { rows } = await webhooksList(deps.pool, sessao.company_id, { page: 1, per_page: MAX_ENDPOINTS });
    const csrf = csrfDe(reply);
    return html(
      reply,
      <Pagina titulo="Webhooks" sessao={sessao} csrf={csrf} area={AREA} aviso={avisoDe(request)}>
        <p>
          Endereços do seu sistema que recebem os eventos escolhidos, assinados (Standard Webhooks). <a href={AREA}>Credenciais da API</a>
        </p>
        <Tabela<WebhookRow>
          legenda="Endpoints de webhook da empresa"
          vazio="Nenhum endpoint cadastrado ainda."
          linhas={rows}
          colunas={[
            { titulo: 'URL', celula: (w) => <a href={`${BASE}/${w.webhook_id}`}>{w.url}</a> },
            { titulo: 'Eventos', celula: (w) => w.eventos.join(', ') },
            { titulo: 'Descrição', celula: (w) => w.descricao ?? '—' },
            { titulo: 'Situação', celula: (w) => <span class="situacao">{situacao(w)}</span> },
            { titulo: 'Criado em', celula: (w) => quando(w.criado_em) },
          ]}
        />
        <h2 id="novo-webhook">Novo endpoint</h2>
        <Erros erros={form.erros} detalhe={form.detalhe} />
        <Formulario acao={BASE} csrf={csrf} rotulo="Novo endpoint">
          <Campo
            nome="url"
            rotulo="URL"
            tipo="url"
            valor={form.url}
            obrigatorio
            ajuda="HTTPS, num endereço público."
            atributos={{ maxlength: WEBHOOK_URL_MAX, inputmode: 'url' }}
          />
          <Campo nome="descricao" rotulo="Descrição (opcional)" valor={form.descricao} atributos={{ maxlength: DESCRICAO_MAX }} />
          <Marcacoes
            nome="eventos"
            legenda="Eventos"
            opcoes={WEBHOOK_EVENT_TYPES.map((t) => ({ valor: t, rotulo: t }))}
            marcados={form.eventos}
          />
          <button type="submit">Criar endpoint</button>
        </Formulario>
      </Pagina>,
      status,
    );
  };

  app.get('/webhooks', (request, reply) => paginaLista(request, reply, VAZIO));

  app.post('/webhooks', async (request, reply) => {
    const form: Preenchido = {
      url: texto(request, 'url').slice(0, WEBHOOK_URL_MAX + 1),
      descricao: texto(request, 'descricao').slice(0, DESCRICAO_MAX + 1),
      eventos: lista(request, 'eventos'),
      erros: [],
    };
    if (!form.url) form.erros.push('Informe a URL do endpoint.');
    else if (form.url.length > WEBHOOK_URL_MAX) form.erros.push(`A URL passa de ${WEBHOOK_URL_MAX} caracteres.`);
    if (form.descricao.length > DESCRICAO_MAX) form.erros.push(`A descrição passa de ${DESCRICAO_MAX} caracteres.`);
    const estranhos = form.eventos.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
    if (estranhos.length > 0) form.erros.push(`Evento desconhecido: ${estranhos.join(', ').slice(0, 100)}.`);
    if (form.eventos.length === 0) form.erros.push('Marque ao menos um evento.');
    if (form.erros.length > 0)
      return paginaLista(request, reply, { ...form, eventos: form.eventos.filter((e) => !estranhos.includes(e)) }, 400);

    const ctx = contextoDe(request, deps);
    let criado: { id: string; secret: string };
    try {
      criado = await h.criar(ctx, { url: form.url, eventos: form.eventos, descricao: form.descricao || null });
    } catch (err) {
      const status = statusDaRecusa(err);
      return paginaLista(
        request,
        reply,
        { ...form, erros: [mensagemDe((err as Rejection).code)], detalhe: `${(err as Rejection).code}: ${(err as Rejection).message}` },
        status === 404 ? 422 : status,
      );
    }
    await deps.readYourWrites.waitFor(ctx.companyId);
    const sessao = sessaoDe(request);
    return html(
      reply,
      <Pagina titulo="Endpoint criado" sessao={sessao} csrf={csrfDe(reply)} area={AREA}>
        <p class="alerta" role="alert">
          Copie agora o segredo de assinatura e guarde em lugar seguro: ele não será mostrado de novo.
        </p>
        <dl>
          <dt>URL</dt>
          <dd>{form.url}</dd>
        </dl>
        <Segredo nome="segredo" rotulo="Segredo de assinatura" valor={criado.secret} />
        <p>
          <a href={`${BASE}/${criado.id}`}>Ver o endpoint</a> · <a href={BASE}>Voltar aos webhooks</a>
        </p>
      </Pagina>,
      201,
    );
  });

  app.get<{ Params: { id: string }; Querystring: { pagina?: string } }>('/webhooks/:id', async (request, reply) => {
    const sessao = sessaoDe(request);
    const w = await webhookPorId(deps.pool, sessao.company_id, request.params.id);
    if (!w) return naoEncontrado(request, reply);
    const pagina = paginaDe(request.query.pagina);
    const { rows, total } = await h.entregas(sessao.company_id, w.webhook_id, { page: pagina, per_page: ENTREGAS_POR_PAGINA });
    const csrf = csrfDe(reply);
    return html(
      reply,
      <Pagina titulo="Endpoint de webhook" sessao={sessao} csrf={csrf} area={AREA} aviso={avisoDe(request)}>
        <p>
          <a href={BASE}>Voltar aos webhooks</a>
        </p>
        <dl>
          <dt>URL</dt>
          <dd>{w.url}</dd>
          <dt>Eventos</dt>
          <dd>{w.eventos.join(', ')}</dd>
          <dt>Descrição</dt>
          <dd>{w.descricao ?? '—'}</dd>
          <dt>Situação</dt>
          <dd>
            {situacao(w)}
            {w.desativado_motivo ? ` (${w.desativado_motivo})` : ''}
          </dd>
          <dt>Impressão do segredo</dt>
          <dd>
            <code>{w.segredo_impressao}</code> (versão {w.segredo_versao})
          </dd>
          <dt>Criado em</dt>
          <dd>{quando(w.criado_em)}</dd>
        </dl>
        <div class="acoes">
          {w.ativo ? (
            <>
              <Acao webhook={w} csrf={csrf} acao="teste" rotulo="Enviar evento de teste" />
              <Acao webhook={w} csrf={csrf} acao="desativar" rotulo="Desativar" />
            </>
          ) : (
            <Acao webhook={w} csrf={csrf} acao="reativar" rotulo="Reativar" />
          )}
          <Acao webhook={w} csrf={csrf} acao="remover" rotulo="Remover" perigo />
        </div>
        <h2 id="entregas">Entregas</h2>
        <Entregas webhookId={w.webhook_id} pagina={pagina} linhas={rows} total={total} />
      </Pagina>,
    );
  });

  /** The delivery log alone, as the detail page's htmx refreshes it. */
  app.get<{ Params: { id: string }; Querystring: { pagina?: string } }>('/webhooks/:id/entregas', async (request, reply) => {
    const sessao = sessaoDe(request);
    const w = await webhookPorId(deps.pool, sessao.company_id, request.params.id);
    if (!w) return naoEncontrado(request, reply);
    const pagina = paginaDe(request.query.pagina);
    const { rows, total } = await h.entregas(sessao.company_id, w.webhook_id, { page: pagina, per_page: ENTREGAS_POR_PAGINA });
    return reply
      .type('text/html; charset=utf-8')
      .send(fragmento(<Entregas webhookId={w.webhook_id} pagina={pagina} linhas={rows} total={total} />));
  });

  /** The endpoint's actions: each checks the endpoint is the company's before anything (404 page otherwise). */
  app.post<{ Params: { id: string; acao: string } }>('/webhooks/:id/:acao', async (request, reply) => {
    const sessao = sessaoDe(request);
    const w = await webhookPorId(deps.pool, sessao.company_id, request.params.id);
    if (!w) return naoEncontrado(request, reply);
    const ctx = contextoDe(request, deps);
    const pagina = `${BASE}/${w.webhook_id}`;
    try {
      switch (request.params.acao) {
        case 'remover':
          if (texto(request, 'confirmar') !== 'sim') return confirmarRemocao(reply, sessao, csrfDe(reply), w);
          await h.remover(ctx, w.webhook_id);
          await deps.readYourWrites.waitFor(ctx.companyId);
          return redirecionar(reply, BASE, 'Endpoint removido.');
        case 'desativar':
          // A fresh cause: the handler derives the event's id from it (the dispatcher passes its delivery's).
          await h.desativar(ctx, w.webhook_id, `disabled in the panel by ${sessao.email}`, randomUUID());
          return redirecionar(reply, pagina, 'Endpoint desativado: nada mais é entregue a ele até ser reativado.');
        case 'reativar':
          await h.reativar(ctx, w.webhook_id);
          return redirecionar(reply, pagina, 'Endpoint reativado.');
        case 'teste':
          await h.testar(ctx, w.webhook_id);
          return redirecionar(reply, pagina, 'Evento de teste enviado: acompanhe em Entregas.');
        default:
          return naoEncontrado(request, reply);
      }
    } catch (err) {
      const status = statusDaRecusa(err);
      if (status === 404) return naoEncontrado(request, reply);
      return paginaDeErro(request, reply, status, 'Ação recusada', mensagemDe((err as Rejection).code), (err as Error).message);
    }
  });
}

const paginaDe = (q: string | undefined) => (/^\d{1,6}$/.test(q ?? '') ? Math.max(1, Number(q)) : 1);

/** The delivery log: refreshed every few seconds while the page is open, so attempts show as they happen. */
function Entregas({ webhookId, pagina, linhas, total }: { webhookId: string; pagina: number; linhas: EntregaWebhook[]; total: number }) {
  return (
    <div id="entregas-log" hx-get={`${BASE}/${webhookId}/entregas?pagina=${pagina}`} hx-trigger="every 3s" hx-swap="outerHTML">
      <Tabela<EntregaWebhook>
        legenda="Entregas deste endpoint, das mais recentes"
        vazio="Nenhuma entrega ainda."
        linhas={linhas}
        colunas={[
          { titulo: 'Evento', celula: (e) => e.tipo },
          { titulo: 'Situação', celula: (e) => <span class="situacao">{SITUACAO_ENTREGA[e.status]}</span> },
          { titulo: 'Tentativas', celula: (e) => e.tentativas, numero: true },
          { titulo: 'Último HTTP', celula: (e) => e.ultimo_status_http ?? '—', numero: true },
          { titulo: 'Último erro', celula: (e) => e.ultimo_erro ?? '—' },
          { titulo: 'Criada em', celula: (e) => quando(e.criada_em) },
          {
            titulo: 'Entregue / próxima tentativa',
            celula: (e) =>
              e.entregue_em ? quando(e.entregue_em) : e.proxima_tentativa_em ? `próxima: ${quando(e.proxima_tentativa_em)}` : '—',
          },
        ]}
      />
      <ProximaPagina href={pagina * ENTREGAS_POR_PAGINA < total ? `${BASE}/${webhookId}?pagina=${pagina + 1}` : null} />
    </div>
  );
}

function Acao(props: { webhook: WebhookRow; csrf: string; acao: string; rotulo: string; perigo?: boolean }) {
  return (
    <Formulario acao={`${BASE}/${props.webhook.webhook_id}/${props.acao}`} csrf={props.csrf} classe="em-linha">
      <button type="submit" class={props.perigo ? 'perigo' : 'secundario'}>
        {props.rotulo}
      </button>
    </Formulario>
  );
}

function confirmarRemocao(reply: FastifyReply, sessao: SessaoConsole, csrf: string, w: WebhookRow) {
  return html(
    reply,
    <Pagina titulo="Remover endpoint" sessao={sessao} csrf={csrf} area={AREA}>
      <p class="alerta">{`Remover o endpoint ${w.url}? Nada mais será entregue a ele, e isto não pode ser desfeito.`}</p>
      <Formulario acao={`${BASE}/${w.webhook_id}/remover`} csrf={csrf} rotulo="Confirmar remoção">
        <input type="hidden" name="confirmar" value="sim" />
        <button type="submit" class="perigo">
          Confirmar remoção
        </button>{' '}
        <a class="botao secundario" href={`${BASE}/${w.webhook_id}`}>
          Cancelar
        </a>
      </Formulario>
    </Pagina>,
  );
}
