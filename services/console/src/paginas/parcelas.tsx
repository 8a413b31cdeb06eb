import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type SituacaoParcela } from '@frete/contracts';
import { documentoRepasseDaEmpresa } from '@frete/application';
import { listarParcelas, type ParcelaListadaRow, type ParcelaRepasseRow, type RepasseDocumentoRow } from '@frete/projections';
import { avisoDe, contextoDe, csrfDe, html, redirecionar, sessaoDe } from '../contexto';
import { Campo, CampoData, Erros, Formulario, ProximaPagina, Selecao, Tabela } from '../html/componentes';
import { Pagina } from '../html/layout';
import { type ConsoleDeps } from '../deps';
import { type SessaoConsole, podeOperar } from '../sessao/sessao';
import { dataHora, dia, hojeEmBrasilia, naoEncontrada, POR_PAGINA, proibido, reais, recusa, Rejection } from './operacoes-comum';
import { Filtros, listar } from './documentos/filtros';
import { paginaDeErro } from '../erros';

const AREA = '/console/parcelas';

const SITUACAO: Record<SituacaoParcela, string> = {
  pendente: 'Pendente',
  liberada: 'Liberada',
  pagamento_solicitado: 'Pagamento solicitado',
  paga: 'Paga',
  cancelada: 'Cancelada',
};

/** What the panel offers on an installment: the acts its state still allows (the decider has the final word). */
function acoesDe(doc: RepasseDocumentoRow, p: ParcelaRepasseRow): ('liberar' | 'pagar')[] {
  if (doc.cancelado) return [];
  if (p.situacao === 'pendente') return ['liberar'];
  if (p.situacao === 'liberada') return ['pagar'];
  return [];
}

function Acoes({ doc, p, documento, csrf }: { doc: RepasseDocumentoRow; p: ParcelaRepasseRow; documento: string; csrf: string }) {
  const acoes = acoesDe(doc, p);
  if (acoes.length === 0) return <span>—</span>;
  return (
    <>
      {acoes.map((a) => (
        <Formulario
          key={a}
          acao={`${AREA}/${a}`}
          csrf={csrf}
          classe="em-linha"
          rotulo={`${a === 'liberar' ? 'Liberar' : 'Pagar'} parcela ${p.posicao}`}
        >
          <input type="hidden" name="documento" value={documento} />
          <input type="hidden" name="posicao" value={String(p.posicao)} />
          <button type="submit" aria-label={`${a === 'liberar' ? 'Liberar' : 'Pagar'} parcela ${p.posicao}`}>
            {a === 'liberar' ? 'Liberar' : 'Pagar'}
          </button>
        </Formulario>
      ))}
    </>
  );
}

function Documento({ doc, documento, sessao, csrf }: { doc: RepasseDocumentoRow; documento: string; sessao: SessaoConsole; csrf: string }) {
  const opera = podeOperar(sessao.papel);
  return (
    <section aria-label="Documento do repasse">
      <h2>Documento</h2>
      <dl class="detalhes">
        <dt>Contra-CT-e</dt>
        <dd>
          <a href={`/console/cte/${doc.cte_id}`}>{doc.chave}</a>
        </dd>
        {doc.documento_financeiro && (
          <>
            <dt>Documento financeiro</dt>
            <dd>{doc.documento_financeiro}</dd>
          </>
        )}
        {doc.lote_id && (
          <>
            <dt>Lote</dt>
            <dd>
              <a href={`/console/lotes/${doc.lote_id}`}>{doc.lote_id}</a>
            </dd>
          </>
        )}
        <dt>Motorista (CPF)</dt>
        <dd>{doc.motorista_cpf}</dd>
        <dt>Valor do repasse</dt>
        <dd>{reais(doc.valor_centavos)}</dd>
        <dt>Modo de liberação</dt>
        <dd>{doc.modo === 'manual' ? 'Manual' : doc.modo === 'automatico' ? 'Automático' : '—'}</dd>
        <dt>Bipagem</dt>
        <dd>{dataHora(doc.bipado_em)}</dd>
        <dt>Situação</dt>
        <dd>{doc.cancelado ? `Cancelado em ${dataHora(doc.cancelado_em)}` : 'Ativo'}</dd>
      </dl>
      <Tabela
        empilhada
        legenda="Parcelas do repasse"
        vazio="Sem parcelas: elas são criadas na bipagem."
        linhas={doc.parcelas}
        colunas={[
          { titulo: 'Parcela', celula: (p) => p.posicao, numero: true },
          { titulo: 'Percentual', celula: (p) => `${p.percentual}%`, numero: true },
          { titulo: 'Valor', celula: (p) => reais(p.valor_centavos), numero: true },
          { titulo: 'Situação', celula: (p) => SITUACAO[p.situacao] },
          { titulo: 'Vencimento', celula: (p) => dia(p.vencimento) },
          { titulo: 'Liberada em', celula: (p) => dataHora(p.liberada_em) },
          { titulo: 'Paga em', celula: (p) => dataHora(p.paga_em) },
          ...(opera
            ? [{ titulo: 'Ações', celula: (p: ParcelaRepasseRow) => <Acoes doc={doc} p={p} documento={documento} csrf={csrf} /> }]
            : []),
        ]}
      />
    </section>
  );
}

const SITUACOES = Object.keys(SITUACAO) as SituacaoParcela[];

/**
 * The company's installments across documents, earliest due date first (those not released yet, without one, last),
 * filtered by the payout's own situations and a due-date limit: the API's list (`GET /v1/carriers/parcelas-repasse`).
 */
async function lerLista(deps: ConsoleDeps, request: FastifyRequest, companyId: string) {
  const f = new Filtros(request.query);
  const situacao = f.opcao('situacao', 'Situação', SITUACOES);
  const ate = f.data('vencimento_ate', 'Vencimento até');
  const vazio = { rows: [] as ParcelaListadaRow[], total: 0, next_cursor: null as string | null };
  const lista = await listar(
    f,
    () => listarParcelas(deps.pool, companyId, { situacao, vencimento_ate: ate, page: 1, per_page: POR_PAGINA, cursor: f.cursor() }),
    vazio,
  );
  return { f, lista, hoje: hojeEmBrasilia(deps.clock()) };
}

function Lista({ f, lista, hoje }: Awaited<ReturnType<typeof lerLista>>) {
  return (
    <section aria-labelledby="titulo-lista">
      <h2 id="titulo-lista">Parcelas por vencimento</h2>
      <form method="get" action={AREA} aria-label="Filtrar parcelas" class="filtros">
        <Selecao
          nome="situacao"
          rotulo="Situação"
          valor={f.valores.situacao ?? ''}
          opcoes={[{ valor: '', rotulo: 'Todas' }, ...SITUACOES.map((s) => ({ valor: s, rotulo: SITUACAO[s] }))]}
        />
        <CampoData nome="vencimento_ate" rotulo="Vencimento até" valor={f.valores.vencimento_ate} />
        <button type="submit">Filtrar</button>
      </form>
      <p>
        <a href={`${AREA}?${new URLSearchParams({ situacao: 'liberada', vencimento_ate: hoje }).toString()}`}>
          Liberadas vencendo até hoje ({dia(hoje)})
        </a>
        {' · '}
        <a href={`${AREA}?situacao=pendente`}>Pendentes</a>
      </p>
      <Erros erros={f.erros} />
      {f.erros.length === 0 && <p>{lista.total === 1 ? '1 parcela encontrada.' : `${lista.total} parcelas encontradas.`}</p>}
      <Tabela
        empilhada
        legenda="Parcelas da empresa, do vencimento mais próximo"
        vazio="Nenhuma parcela encontrada."
        linhas={lista.rows}
        colunas={[
          { titulo: 'Vencimento', celula: (p) => dia(p.vencimento) },
          { titulo: 'Situação', celula: (p) => SITUACAO[p.situacao] },
          { titulo: 'Valor', celula: (p) => reais(p.valor_centavos), numero: true },
          {
            titulo: 'Documento',
            celula: (p) => (
              <a href={`${AREA}?documento=${encodeURIComponent(p.cte_id)}`}>
                {p.documento_financeiro ?? `Contra-CT-e ${p.cte_id.slice(0, 8)}`}
              </a>
            ),
          },
          { titulo: 'Parcela', celula: (p) => p.posicao, numero: true },
          { titulo: 'Motorista (CPF)', celula: (p) => p.motorista_cpf },
        ]}
      />
      <ProximaPagina href={f.proxima(AREA, lista.next_cursor)} />
    </section>
  );
}

const documentoDe = (request: FastifyRequest): string => {
  const d = (request.query as { documento?: unknown }).documento;
  return typeof d === 'string' ? d.trim().slice(0, 200) : '';
};

export function parcelas(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/parcelas', async (request, reply) => {
    const sessao = sessaoDe(request);
    const documento = documentoDe(request);
    let doc: RepasseDocumentoRow | null = null;
    if (documento) {
      try {
        doc = await documentoRepasseDaEmpresa(deps, sessao.company_id, documento);
      } catch (e) {
        if (e instanceof Rejection && e.code === 'nao_encontrado') return naoEncontrada(request, reply, 'O documento');
        throw e;
      }
    }
    // A document asked for is the page; without one, the list by due date.
    const lista = doc ? null : await lerLista(deps, request, sessao.company_id);
    const csrf = csrfDe(reply);
    return html(
      reply,
      <Pagina titulo="Parcelas do repasse" sessao={sessao} csrf={csrf} area={AREA} aviso={avisoDe(request)}>
        <form method="get" action={AREA} aria-label="Buscar documento" class="busca">
          <Campo
            nome="documento"
            rotulo="Documento"
            valor={documento}
            obrigatorio
            ajuda="Id do contra-CT-e, chave de acesso ou documento financeiro (ROUTE:...)."
          />
          <button type="submit">Buscar</button>
        </form>
        {doc && <Documento doc={doc} documento={documento} sessao={sessao} csrf={csrf} />}
        {lista && <Lista {...lista} />}
      </Pagina>,
      lista && lista.f.erros.length > 0 ? 400 : 200,
    );
  });

  const agir = (tipo: 'Liberar' | 'Pagar') => async (request: FastifyRequest, reply: FastifyReply) => {
    const sessao = sessaoDe(request);
    if (!podeOperar(sessao.papel)) return proibido(request, reply);
    const body = (request.body ?? {}) as { documento?: unknown; posicao?: unknown };
    const documento = typeof body.documento === 'string' ? body.documento.trim() : '';
    const posicao = Number(body.posicao);
    if (!documento || !Number.isInteger(posicao) || posicao < 1 || posicao > 3)
      return paginaDeErro(request, reply, 400, 'Pedido inválido', 'Informe o documento e uma parcela de 1 a 3.');
    try {
      await deps.handlers.repasse.agir(contextoDe(request, deps), documento, { type: tipo, posicao });
    } catch (e) {
      if (e instanceof Rejection) return recusa(request, reply, e);
      throw e;
    }
    const aviso = tipo === 'Liberar' ? `Parcela ${posicao} liberada.` : `Pagamento da parcela ${posicao} solicitado.`;
    return redirecionar(reply, `${AREA}?documento=${encodeURIComponent(documento)}`, aviso);
  };
  app.post('/parcelas/liberar', agir('Liberar'));
  app.post('/parcelas/pagar', agir('Pagar'));
}
