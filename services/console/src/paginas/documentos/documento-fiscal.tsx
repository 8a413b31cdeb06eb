import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type ComponentChildren } from 'preact';
import { type Pool } from 'pg';
import { type EspecieDocumento } from '@frete/domain';
import { avisoDe, csrfDe, html, sessaoDe } from '../../contexto';
import { Pagina } from '../../html/layout';
import { type Coluna, Erros, ProximaPagina, Tabela } from '../../html/componentes';
import { paginaDeErro } from '../../erros';
import { type ConsoleDeps } from '../../deps';
import { type Filtros } from './filtros';
import { Arquivos, indisponivel, numeroDe, UUID } from './comum';
import { Fatos, rotuloSituacao } from './formato';

/** What the panel reads of a fiscal document's row, whatever its kind: the id under the kind's column, the archive. */
export type LinhaDoPainel = {
  numero: number | string | null;
  serie: number | null;
  situacao: string;
  chave: string | null;
  xml_sha256: string | null;
} & { [K in EspecieDocumento['campoId']]?: string };

/** What the panel's pages of a kind need besides its description (`CTE`, `MDFE`): its read and its printed form. */
export interface PainelDoDocumento<R extends LinhaDoPainel> {
  /** One own document; null when it does not exist or is another company's. */
  ler: (pool: Pool, companyId: string, id: string) => Promise<R | null>;
  /** The printed document (DACTE, DAMDFE) of the archived XML; null when that XML can no longer be read. */
  imprimir: (request: FastifyRequest, row: R & { chave: string }, xml: Buffer, companyId: string) => Promise<Buffer | null>;
}

/** `a, b ou c`: the situations in which a printed document exists, as a sentence says them. */
const porExtenso = (situacoes: readonly string[]): string =>
  situacoes.length < 2
    ? situacoes.map(rotuloSituacao).join('').toLowerCase()
    : `${situacoes.slice(0, -1).map(rotuloSituacao).join(', ')} ou ${rotuloSituacao(situacoes.at(-1)!)}`.toLowerCase();

/**
 * The panel's pages every fiscal document kind has, taking the kind: where its area is, its "not found" page, the
 * read of one own document, and the downloads of its authorized XML (`/xml`) and printed document (`/dacte`,
 * `/damdfe`). The list's and the detail's frames are below (`ListaDoDocumento`, `CabecalhoDoDocumento`); what a page
 * shows of one kind (columns, facts, sections) stays in the kind's page.
 */
export function paginasDoDocumento<R extends LinhaDoPainel>(
  app: FastifyInstance,
  deps: ConsoleDeps,
  especie: EspecieDocumento,
  p: PainelDoDocumento<R>,
) {
  const { nome, recurso, impresso } = especie;
  const area = `/console/${recurso}`;
  const naoEncontrado = (request: FastifyRequest, reply: FastifyReply, mensagem = `Este ${nome} não existe ou não é da sua empresa.`) =>
    paginaDeErro(request, reply, 404, `${nome} não encontrado`, mensagem);
  /** One own document of the session's company; a malformed id or another company's document is simply not found. */
  const daEmpresa = (companyId: string, id: string): Promise<R | null> =>
    UUID.test(id) ? p.ler(deps.pool, companyId, id.toLowerCase()) : Promise.resolve(null);
  /** The authority's XML (and so the printed document) exists in these situations, as the API's downloads decide. */
  const comXml = (row: R) => impresso.situacoes.includes(row.situacao);

  app.get<{ Params: { id: string } }>(`/${recurso}/:id/xml`, async (request, reply) => {
    const row = await daEmpresa(sessaoDe(request).company_id, request.params.id);
    if (!row) return naoEncontrado(request, reply);
    if (!comXml(row) || !row.xml_sha256)
      return naoEncontrado(request, reply, `Este ${nome} não tem XML autorizado (só um ${nome} ${porExtenso(impresso.situacoes)} tem).`);
    const doc = await deps.documents.get(row.xml_sha256);
    if (!doc) return indisponivel(request, reply);
    return reply
      .type('application/xml')
      .header('Content-Disposition', `attachment; filename="${row.chave}-${impresso.proc}.xml"`)
      .send(doc.content);
  });

  app.get<{ Params: { id: string } }>(`/${recurso}/:id/${impresso.nome.toLowerCase()}`, async (request, reply) => {
    const sessao = sessaoDe(request);
    const row = await daEmpresa(sessao.company_id, request.params.id);
    if (!row) return naoEncontrado(request, reply);
    const chave = row.chave;
    if (!comXml(row) || !chave)
      return naoEncontrado(request, reply, `O ${impresso.nome} existe só para um ${nome} ${porExtenso(impresso.situacoes)}.`);
    if (!row.xml_sha256) return indisponivel(request, reply);
    const doc = await deps.documents.get(row.xml_sha256);
    if (!doc) return indisponivel(request, reply);
    const pdf = await p.imprimir(request, { ...row, chave }, doc.content, sessao.company_id);
    if (!pdf) return indisponivel(request, reply);
    return reply
      .type('application/pdf')
      .header('Content-Disposition', `inline; filename="${chave}-${impresso.nome.toLowerCase()}.pdf"`)
      .send(pdf);
  });

  return { area, naoEncontrado, daEmpresa, comXml };
}

interface ListaProps<R> {
  especie: EspecieDocumento;
  request: FastifyRequest;
  reply: FastifyReply;
  filtros: Filtros;
  lista: { rows: R[]; total: number; next_cursor: string | null };
  colunas: Coluna<R>[];
  /** The kind's own filter fields. */
  children: ComponentChildren;
}

/** A kind's list page: its filters, the count, the table of the company's documents and the next page's link. */
export function ListaDoDocumento<R>(props: ListaProps<R>) {
  const { especie, request, reply, filtros: f, lista } = props;
  const area = `/console/${especie.recurso}`;
  const { nome } = especie;
  return (
    <Pagina titulo={nome} sessao={sessaoDe(request)} csrf={csrfDe(reply)} area={area} aviso={avisoDe(request)}>
      <form method="get" action={area} class="filtros" aria-label={`Filtrar ${nome}`}>
        {props.children}
        <button type="submit">Filtrar</button>
      </form>
      <Erros erros={f.erros} />
      {f.erros.length === 0 && <p>{lista.total === 1 ? `1 ${nome} encontrado.` : `${lista.total} ${nome} encontrados.`}</p>}
      <Tabela legenda={`${nome} da empresa`} vazio={`Nenhum ${nome} encontrado.`} linhas={lista.rows} colunas={props.colunas} />
      <ProximaPagina href={f.proxima(area, lista.next_cursor)} />
    </Pagina>
  );
}

/** Answers a kind's list page: 400 while a filter is wrong. */
export const listaDoDocumento = <R,>(props: ListaProps<R>) =>
  html(props.reply, <ListaDoDocumento {...props} />, props.filtros.erros.length > 0 ? 400 : 200);

/** The head of a kind's page: the way back to its list, then its facts, then its downloads once authorized. */
export function CabecalhoDoDocumento({
  especie,
  id,
  itens,
  comArquivos,
}: {
  especie: EspecieDocumento;
  id: string;
  /** The facts of the document (`itensDoDocumento` and the kind's own). */
  itens: [string, ComponentChildren][];
  comArquivos: boolean;
}) {
  const area = `/console/${especie.recurso}`;
  const { nome, impresso } = especie;
  return (
    <>
      <p>
        <a href={area}>Voltar à lista de {nome}</a>
      </p>
      <Fatos rotulo={`Dados do ${nome}`} itens={itens} />
      {comArquivos && <Arquivos base={`${area}/${id}`} pdf={impresso.nome.toLowerCase()} rotuloPdf={`Baixar ${impresso.nome} (PDF)`} />}
    </>
  );
}

/** A document's title in its page: kind and series/number (or draft). */
export const tituloDoDocumento = (especie: EspecieDocumento, row: LinhaDoPainel) => `${especie.nome} ${numeroDe(row)}`;
