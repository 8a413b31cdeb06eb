import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { damdfeDoMdfe } from '@frete/application';
import { textoKgDeGramas, totaisMdfe } from '@frete/domain';
import { mdfeList, mdfeOf, type MdfeRow } from '@frete/projections';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { Pagina } from '../html/layout';
import { Erros, ProximaPagina, Selecao, Tabela } from '../html/componentes';
import { paginaDeErro } from '../erros';
import { type ConsoleDeps } from '../deps';
import { Filtros, listar } from './documentos/filtros';
import { Fatos, dataHora, opcoesDe, reais, rotuloSituacao, SITUACOES_MDFE } from './documentos/formato';
import { Historico, historicoDe } from './documentos/historico';
import { Arquivos, indisponivel, itensDoDocumento, numeroDe, UUID } from './documentos/comum';

const AREA = '/console/mdfe';
/** Where the API's DAMDFE exists: an authorized manifest, also once closed or cancelled. */
const COM_DAMDFE = ['autorizado', 'encerrado', 'cancelado'];

const naoEncontrado = (request: FastifyRequest, reply: FastifyReply, mensagem = 'Este MDF-e não existe ou não é da sua empresa.') =>
  paginaDeErro(request, reply, 404, 'MDF-e não encontrado', mensagem);

const mdfeDaEmpresa = (deps: ConsoleDeps, companyId: string, id: string) =>
  UUID.test(id) ? mdfeOf(deps.pool, companyId, id.toLowerCase()) : Promise.resolve(null);

const TIPO_EVENTO: Record<string, string> = {
  cancelamento: 'Cancelamento',
  encerramento: 'Encerramento',
  condutor: 'Inclusão de condutor',
};

/** The company's MDF-e, their documents and history. */
export function mdfe(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/mdfe', async (request, reply) => {
    const sessao = sessaoDe(request);
    const f = new Filtros(request.query);
    const status = f.opcao('status', 'Situação', SITUACOES_MDFE);
    const lista = await listar(f, () => mdfeList(deps.pool, sessao.company_id, { status, page: 1, per_page: 20, cursor: f.cursor() }), {
      rows: [] as MdfeRow[],
      total: 0,
      next_cursor: null as string | null,
    });
    return html(
      reply,
      <Pagina titulo="MDF-e" sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <form method="get" action={AREA} class="filtros" aria-label="Filtrar MDF-e">
          <Selecao nome="status" rotulo="Situação" opcoes={opcoesDe(SITUACOES_MDFE, 'Todas')} valor={f.valores.status ?? ''} />
          <button type="submit">Filtrar</button>
        </form>
        <Erros erros={f.erros} />
        {f.erros.length === 0 && <p>{lista.total === 1 ? '1 MDF-e encontrado.' : `${lista.total} MDF-e encontrados.`}</p>}
        <Tabela
          legenda="MDF-e da empresa"
          vazio="Nenhum MDF-e encontrado."
          linhas={lista.rows}
          colunas={[
            { titulo: 'Série/Número', celula: (r) => <a href={`${AREA}/${r.mdfe_id}`}>{numeroDe(r)}</a> },
            { titulo: 'Situação', celula: (r) => rotuloSituacao(r.situacao) },
            { titulo: 'Percurso', celula: (r) => `${r.dados.uf_inicio} → ${r.dados.uf_fim}` },
            { titulo: 'Placa', celula: (r) => r.dados.veiculo.placa },
            { titulo: 'CT-e', numero: true, celula: (r) => r.dados.ctes.length },
            { titulo: 'Emissão', celula: (r) => dataHora(r.data_emissao ?? r.created_at) },
          ]}
        />
        <ProximaPagina href={f.proxima(AREA, lista.next_cursor)} />
      </Pagina>,
      f.erros.length > 0 ? 400 : 200,
    );
  });

  app.get<{ Params: { id: string } }>('/mdfe/:id', async (request, reply) => {
    const sessao = sessaoDe(request);
    const row = await mdfeDaEmpresa(deps, sessao.company_id, request.params.id);
    if (!row) return naoEncontrado(request, reply);
    const historico = await historicoDe(request, deps, sessao.company_id, 'mdfe', row.mdfe_id);
    const d = row.dados;
    const totais = totaisMdfe(d.ctes);
    return html(
      reply,
      <Pagina titulo={`MDF-e ${numeroDe(row)}`} sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <p>
          <a href={AREA}>Voltar à lista de MDF-e</a>
        </p>
        <Fatos
          rotulo="Dados do MDF-e"
          itens={[
            ...itensDoDocumento(row, row.protocolo, row.data_emissao),
            ['Percurso', [d.uf_inicio, ...d.percurso, d.uf_fim].join(' → ')],
            ['Veículo', [d.veiculo.placa, ...d.reboques.map((r) => r.placa)].join(', ')],
            ['Condutores', row.condutores.map((c) => c.nome).join(', ') || '—'],
            ['Valor da carga', reais(totais.valor_carga_centavos)],
            ['Peso bruto', `${textoKgDeGramas(totais.peso_gramas)} kg`],
          ]}
        />
        {COM_DAMDFE.includes(row.situacao) && row.chave && row.xml_sha256 && (
          <Arquivos base={`${AREA}/${row.mdfe_id}`} pdf="damdfe" rotuloPdf="Baixar DAMDFE (PDF)" />
        )}
        <section aria-labelledby="ctes">
          <h2 id="ctes">CT-e do manifesto</h2>
          <Tabela
            legenda="CT-e do manifesto"
            vazio="Nenhum CT-e."
            linhas={d.ctes}
            colunas={[
              { titulo: 'Chave', celula: (c) => <a href={`/console/cte/${c.cte_id}`}>{c.chave}</a> },
              { titulo: 'Descarga', celula: (c) => `${c.descarga.municipio}/${c.descarga.uf}` },
              { titulo: 'Valor da carga', numero: true, celula: (c) => reais(c.valor_carga_centavos) },
            ]}
          />
        </section>
        <section aria-labelledby="eventos">
          <h2 id="eventos">Eventos fiscais</h2>
          <Tabela
            legenda="Eventos fiscais"
            vazio="Nenhum evento fiscal."
            linhas={row.eventos}
            colunas={[
              { titulo: 'Evento', celula: (e) => TIPO_EVENTO[e.tipo] ?? e.tipo },
              { titulo: 'Sequência', numero: true, celula: (e) => e.n_seq },
              { titulo: 'Situação', celula: (e) => rotuloSituacao(e.situacao) },
              { titulo: 'Protocolo', celula: (e) => e.protocolo?.numero ?? '—' },
              { titulo: 'Retorno', celula: (e) => (e.retorno ? `${e.retorno.cstat ?? ''} ${e.retorno.motivo}`.trim() : '—') },
            ]}
          />
        </section>
        <section aria-labelledby="historico">
          <h2 id="historico">Histórico</h2>
          <Historico eventos={historico} />
        </section>
      </Pagina>,
    );
  });

  app.get<{ Params: { id: string } }>('/mdfe/:id/xml', async (request, reply) => {
    const row = await mdfeDaEmpresa(deps, sessaoDe(request).company_id, request.params.id);
    if (!row) return naoEncontrado(request, reply);
    if (!row.xml_sha256) return naoEncontrado(request, reply, 'Este MDF-e não tem XML autorizado.');
    const doc = await deps.documents.get(row.xml_sha256);
    if (!doc) return indisponivel(request, reply);
    return reply
      .type('application/xml')
      .header('Content-Disposition', `attachment; filename="${row.chave}-mdfeProc.xml"`)
      .send(doc.content);
  });

  app.get<{ Params: { id: string } }>('/mdfe/:id/damdfe', async (request, reply) => {
    const sessao = sessaoDe(request);
    const row = await mdfeDaEmpresa(deps, sessao.company_id, request.params.id);
    if (!row) return naoEncontrado(request, reply);
    const chave = row.chave;
    if (!COM_DAMDFE.includes(row.situacao) || !chave)
      return naoEncontrado(request, reply, 'O DAMDFE existe só para um MDF-e autorizado, encerrado ou cancelado.');
    if (!row.xml_sha256) return indisponivel(request, reply);
    const doc = await deps.documents.get(row.xml_sha256);
    if (!doc) return indisponivel(request, reply);
    const pdf = await damdfeDoMdfe(deps.pool, sessao.company_id, { ...row, chave }, doc.content.toString('utf8'), deps.config.environment);
    return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${chave}-damdfe.pdf"`).send(pdf);
  });
}
