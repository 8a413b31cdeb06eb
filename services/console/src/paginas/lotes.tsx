import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type LoteProgresso, type LoteStatus } from '@frete/contracts';
import { type LoteLinhaRow, loteDe, loteRelatorioView, lotesList, progressoDeContagem } from '@frete/projections';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { ProximaPagina, Selecao, Tabela } from '../html/componentes';
import { cnpjFormatado, Pagina } from '../html/layout';
import { fragmento } from '../html/render';
import { type ConsoleDeps } from '../deps';
import { cursorDe, dataHora, listar, naoEncontrada, POR_PAGINA, proxima, UUID } from './operacoes-comum';
import { mensagemDe } from '../mensagens';

const AREA = '/console/lotes';

/** The filter's situations, as the batch's decider names them (`failed`: every row failed). */
const SITUACAO_LOTE: Record<LoteStatus, string> = { processing: 'Em processamento', done: 'Concluído', failed: 'Falhou' };

/**
 * A batch's situation in words, from what its decider recorded (`status`) and the rows' counts: finished with some
 * rows failed reads differently from finished clean, and from failed (the decider's `failed`: no row emitted).
 */
export function situacaoDoLote(status: LoteStatus, falhas: number, total: number): string {
  if (status === 'processing') return 'Em processamento';
  if (status === 'failed') return `Lote falhou (${falhas} de ${total} ${total === 1 ? 'linha' : 'linhas'} com erro)`;
  return falhas > 0 ? `Lote concluído com falhas (${falhas} de ${total})` : 'Lote concluído';
}
const SITUACAO_LINHA: Record<LoteLinhaRow['status'], string> = {
  // Pending until the authority's verdict and, once authorized, the payout's registration (issue 27).
  pending: 'Aguardando autorização e repasse',
  emitted: 'Emitido',
  duplicated: 'Já existia',
  failed: 'Erro',
};

/** The list's `?situacao=` filter; anything else is no filter. */
function situacaoDe(request: FastifyRequest): LoteStatus | undefined {
  const s = (request.query as { situacao?: unknown }).situacao;
  return typeof s === 'string' && Object.hasOwn(SITUACAO_LOTE, s) ? (s as LoteStatus) : undefined;
}

/** The row page of the outcome table (`?pagina=`, from 1). */
function paginaDe(request: FastifyRequest): number {
  const p = Number((request.query as { pagina?: unknown }).pagina ?? 1);
  return Number.isInteger(p) && p >= 1 && p <= 100_000 ? p : 1;
}

function Contagens({ p }: { p: LoteProgresso }) {
  const itens: [string, number][] = [
    ['Total', p.total],
    ['Processadas', p.completed],
    ['Emitidas', p.counts.emitted + p.counts.duplicated],
    ['Erros', p.counts.failed],
    ['Aguardando', p.counts.queued + p.counts.pending],
  ];
  return (
    <dl class="contagens">
      {itens.map(([rotulo, n]) => (
        <div key={rotulo}>
          <dt>{rotulo}</dt>
          <dd>{n}</dd>
        </div>
      ))}
    </dl>
  );
}

function Resultado({ l }: { l: LoteLinhaRow }) {
  if (l.error_code)
    return (
      <span class="erro">
        {mensagemDe(l.error_code)}{' '}
        <small class="detalhe-suporte">
          ({l.error_code}
          {l.error_message ? `: ${l.error_message}` : ''})
        </small>
      </span>
    );
  if (l.counter_cte_id)
    return (
      <>
        <a href={`/console/cte/${l.counter_cte_id}`}>Contra-CT-e {l.counter_cte_id.slice(0, 8)}</a>
        {' · '}
        <a href={`/console/parcelas?documento=${encodeURIComponent(l.documento_financeiro ?? l.counter_cte_id)}`}>Parcelas</a>
      </>
    );
  return <span>—</span>;
}

/** The live part of a found batch, at the page the request asks for. */
const progressoDoLote = ({ lote, linhas }: NonNullable<Awaited<ReturnType<typeof loteDe>>>, request: FastifyRequest) => (
  <Progresso
    batchId={lote.batch_id}
    status={lote.status}
    progresso={progressoDeContagem(lote, lote.contagem)}
    linhas={linhas}
    pagina={paginaDe(request)}
  />
);

/**
 * The live part of a batch's page. While the batch's decider has not finished it (`concluido_em`), htmx fetches it
 * again every 2 s and swaps it whole; the finished one carries no trigger, so the polling stops by itself.
 */
function Progresso({
  batchId,
  status,
  progresso,
  linhas,
  pagina: paginaPedida,
}: {
  batchId: string;
  status: LoteStatus;
  progresso: LoteProgresso;
  linhas: LoteLinhaRow[];
  pagina: number;
}) {
  const terminado = progresso.finished_at !== null;
  // A page past the last shows the last (a link kept from when the batch had more rows on screen).
  const pagina = Math.min(paginaPedida, Math.max(1, Math.ceil(linhas.length / POR_PAGINA)));
  const inicio = (pagina - 1) * POR_PAGINA;
  const visiveis = linhas.slice(inicio, inicio + POR_PAGINA);
  const url = `${AREA}/${batchId}/progresso${pagina > 1 ? `?pagina=${pagina}` : ''}`;
  const vivo = terminado ? {} : { 'hx-get': url, 'hx-trigger': 'every 2s', 'hx-swap': 'outerHTML' };
  const pct = progresso.total > 0 ? Math.floor((progresso.completed * 100) / progresso.total) : 100;
  return (
    <section id="progresso" class="progresso" aria-busy={terminado ? 'false' : 'true'} {...vivo}>
      <h2>{terminado ? situacaoDoLote(status, progresso.counts.failed, progresso.total) : 'Em processamento'}</h2>
      <label for="barra-progresso">
        Progresso do lote: {progresso.completed} de {progresso.total} ({pct}%)
      </label>
      <progress id="barra-progresso" max={progresso.total} value={progresso.completed}>
        {pct}%
      </progress>
      <Contagens p={progresso} />
      {!terminado && progresso.estimated_seconds_left !== null && <p>Tempo restante estimado: {progresso.estimated_seconds_left} s</p>}
      <Tabela
        empilhada
        legenda="Resultado por linha"
        vazio="Nenhuma linha processada ainda."
        linhas={visiveis}
        colunas={[
          { titulo: 'Linha', celula: (l) => l.linha + 1, numero: true },
          { titulo: 'Chave', celula: (l) => <code>{l.chave}</code> },
          { titulo: 'Perna', celula: (l) => (l.perna === null ? '—' : l.perna + 1), numero: true },
          { titulo: 'Situação', celula: (l) => SITUACAO_LINHA[l.status] },
          { titulo: 'Contra-CT-e ou erro', celula: (l) => <Resultado l={l} /> },
        ]}
      />
      {linhas.length > POR_PAGINA && (
        <p>
          Linhas {inicio + 1} a {Math.min(inicio + POR_PAGINA, linhas.length)} de {linhas.length}
        </p>
      )}
      <nav class="paginacao" aria-label="Páginas das linhas">
        {pagina > 1 && <a href={`${AREA}/${batchId}?pagina=${pagina - 1}`}>Linhas anteriores</a>}{' '}
        {inicio + POR_PAGINA < linhas.length && <a href={`${AREA}/${batchId}?pagina=${pagina + 1}`}>Próximas linhas</a>}
      </nav>
    </section>
  );
}

export function lotes(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/lotes', async (request, reply) => {
    const sessao = sessaoDe(request);
    const status = situacaoDe(request);
    const { rows, next_cursor } = await listar(() =>
      lotesList(deps.pool, sessao.company_id, { status, page: 1, per_page: POR_PAGINA, cursor: cursorDe(request) }),
    );
    return html(
      reply,
      <Pagina titulo="Lotes de contra-CT-e" sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <form method="get" action={AREA} aria-label="Filtrar lotes" class="busca">
          <Selecao
            nome="situacao"
            rotulo="Situação"
            valor={status ?? ''}
            opcoes={[{ valor: '', rotulo: 'Todas' }, ...Object.entries(SITUACAO_LOTE).map(([valor, rotulo]) => ({ valor, rotulo }))]}
          />
          <button type="submit">Filtrar</button>
        </form>
        <Tabela
          empilhada
          legenda="Lotes da empresa, do mais recente"
          vazio="Nenhum lote ainda."
          linhas={rows}
          colunas={[
            { titulo: 'Criado em', celula: (l) => <a href={`${AREA}/${l.batch_id}`}>{dataHora(l.created_at)}</a> },
            { titulo: 'Situação', celula: (l) => situacaoDoLote(l.status, l.contagem.failed, progressoDeContagem(l, l.contagem).total) },
            { titulo: 'Subcontratada', celula: (l) => l.subcontratada_nome },
            { titulo: 'Solicitante', celula: (l) => l.solicitante_nome ?? '—' },
            {
              titulo: 'Processadas',
              celula: (l) => {
                const p = progressoDeContagem(l, l.contagem);
                return `${p.completed}/${p.total}`;
              },
              numero: true,
            },
            { titulo: 'Erros', celula: (l) => l.contagem.failed, numero: true },
          ]}
        />
        <ProximaPagina href={proxima(AREA, next_cursor, status ? { situacao: status } : {})} />
      </Pagina>,
    );
  });

  const doLote = async (companyId: string, id: string) => (UUID.test(id) ? await loteDe(deps.pool, id.toLowerCase(), companyId) : null);

  app.get<{ Params: { id: string } }>('/lotes/:id', async (request, reply) => {
    const sessao = sessaoDe(request);
    const achado = await doLote(sessao.company_id, request.params.id);
    if (!achado) return naoEncontrada(request, reply, 'O lote');
    const { lote } = achado;
    return html(
      reply,
      <Pagina titulo="Lote de contra-CT-e" sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <dl class="detalhes">
          <dt>Lote</dt>
          <dd>
            <code>{lote.batch_id}</code>
          </dd>
          <dt>Situação</dt>
          <dd>{situacaoDoLote(lote.status, lote.contagem.failed, progressoDeContagem(lote, lote.contagem).total)}</dd>
          <dt>Subcontratada</dt>
          <dd>
            {lote.subcontratada_nome} ({cnpjFormatado(lote.subcontratada_cnpj)})
          </dd>
          <dt>Solicitante</dt>
          <dd>{lote.solicitante_nome ? `${lote.solicitante_nome} (${cnpjFormatado(lote.solicitante_cnpj ?? '')})` : '—'}</dd>
          <dt>Criado em</dt>
          <dd>{dataHora(lote.created_at)}</dd>
        </dl>
        <p>
          <a href={`${AREA}/${lote.batch_id}/relatorio.json`} download>
            Baixar o relatório do lote (JSON)
          </a>{' '}
          · na API: <code>GET /v1/fiscal/cte-subcontratacao/lote/{lote.batch_id}</code>
        </p>
        {progressoDoLote(achado, request)}
        <p>
          <a href={AREA}>Voltar aos lotes</a>
        </p>
      </Pagina>,
    );
  });

  app.get<{ Params: { id: string } }>('/lotes/:id/progresso', async (request, reply) => {
    const sessao = sessaoDe(request);
    const achado = await doLote(sessao.company_id, request.params.id);
    if (!achado) return naoEncontrada(request, reply, 'O lote');
    return reply.type('text/html; charset=utf-8').send(fragmento(progressoDoLote(achado, request)));
  });

  // The API's report, for a user of the panel (the API's own route takes an API credential, not the panel's session).
  app.get<{ Params: { id: string } }>('/lotes/:id/relatorio.json', async (request, reply) => {
    const sessao = sessaoDe(request);
    const achado = await doLote(sessao.company_id, request.params.id);
    if (!achado) return naoEncontrada(request, reply, 'O lote');
    const { lote, linhas } = achado;
    const relatorio = loteRelatorioView(lote, linhas);
    return reply
      .type('application/json; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="lote-${lote.batch_id}.json"`)
      .send(JSON.stringify(relatorio, null, 2));
  });
}
