import { type FastifyInstance } from 'fastify';
import { damdfeDoMdfe } from '@frete/application';
import { MDFE, textoKgDeGramas, totaisMdfe } from '@frete/domain';
import { mdfeList, mdfeOf, type MdfeRow } from '@frete/projections';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { Pagina } from '../html/layout';
import { Selecao, Tabela } from '../html/componentes';
import { type ConsoleDeps } from '../deps';
import { Filtros, listar } from './documentos/filtros';
import { dataHora, opcoesDe, reais, rotuloSituacao } from './documentos/formato';
import { Historico, historicoDe } from './documentos/historico';
import { itensDoDocumento, numeroDe } from './documentos/comum';
import { CabecalhoDoDocumento, listaDoDocumento, paginasDoDocumento, tituloDoDocumento } from './documentos/documento-fiscal';

const TIPO_EVENTO: Record<string, string> = {
  cancelamento: 'Cancelamento',
  encerramento: 'Encerramento',
  condutor: 'Inclusão de condutor',
};

/** The company's MDF-e, their documents and history. */
export function mdfe(app: FastifyInstance, deps: ConsoleDeps) {
  const { area, naoEncontrado, daEmpresa, comXml } = paginasDoDocumento(app, deps, MDFE, {
    ler: mdfeOf,
    imprimir: (_request, row, xml, companyId) => damdfeDoMdfe(deps.pool, companyId, row, xml.toString('utf8'), deps.config.environment),
  });

  app.get('/mdfe', async (request, reply) => {
    const sessao = sessaoDe(request);
    const f = new Filtros(request.query);
    const status = f.opcao('status', 'Situação', MDFE.situacoes);
    const lista = await listar(
      f,
      () => mdfeList(deps.pool, sessao.company_id, { situacao: status, page: 1, per_page: 20, cursor: f.cursor() }),
      {
        rows: [] as MdfeRow[],
        total: 0,
        next_cursor: null as string | null,
      },
    );
    return listaDoDocumento({
      especie: MDFE,
      request,
      reply,
      filtros: f,
      lista,
      colunas: [
        { titulo: 'Série/Número', celula: (r) => <a href={`${area}/${r.mdfe_id}`}>{numeroDe(r)}</a> },
        { titulo: 'Situação', celula: (r) => rotuloSituacao(r.situacao) },
        { titulo: 'Percurso', celula: (r) => `${r.dados.uf_inicio} → ${r.dados.uf_fim}` },
        { titulo: 'Placa', celula: (r) => r.dados.veiculo.placa },
        { titulo: 'CT-e', numero: true, celula: (r) => r.dados.ctes.length },
        { titulo: 'Emissão', celula: (r) => dataHora(r.data_emissao ?? r.created_at) },
      ],
      children: <Selecao nome="status" rotulo="Situação" opcoes={opcoesDe(MDFE.situacoes, 'Todas')} valor={f.valores.status ?? ''} />,
    });
  });

  app.get<{ Params: { id: string } }>('/mdfe/:id', async (request, reply) => {
    const sessao = sessaoDe(request);
    const row = await daEmpresa(sessao.company_id, request.params.id);
    if (!row) return naoEncontrado(request, reply);
    const historico = await historicoDe(request, deps, sessao.company_id, 'mdfe', row.mdfe_id);
    const d = row.dados;
    const totais = totaisMdfe(d.ctes);
    return html(
      reply,
      <Pagina titulo={tituloDoDocumento(MDFE, row)} sessao={sessao} csrf={csrfDe(reply)} area={area} aviso={avisoDe(request)}>
        <CabecalhoDoDocumento
          especie={MDFE}
          id={row.mdfe_id}
          comArquivos={comXml(row) && row.chave !== null && row.xml_sha256 !== null}
          itens={[
            ...itensDoDocumento(row, row.protocolo, row.data_emissao),
            ['Percurso', [d.uf_inicio, ...d.percurso, d.uf_fim].join(' → ')],
            ['Veículo', [d.veiculo.placa, ...d.reboques.map((r) => r.placa)].join(', ')],
            ['Condutores', row.condutores.map((c) => c.nome).join(', ') || '—'],
            ['Valor da carga', reais(totais.valor_carga_centavos)],
            ['Peso bruto', `${textoKgDeGramas(totais.peso_gramas)} kg`],
          ]}
        />
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
}
