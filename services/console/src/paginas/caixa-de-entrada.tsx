import { type FastifyInstance } from 'fastify';
import { InboundCteCarrierRole, InboundCteStatus } from '@frete/contracts';
import { isValidAccessKey } from '@frete/domain';
import { caixaCteList, caixaCteOf, type CaixaCteRow, distribuicaoDe, nfeList } from '@frete/projections';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { Pagina } from '../html/layout';
import { Campo, CampoData, Erros, ProximaPagina, Selecao, Tabela } from '../html/componentes';
import { paginaDeErro } from '../erros';
import { type ConsoleDeps } from '../deps';
import { Filtros, listar } from './documentos/filtros';
import { dataHora, parteTexto, reais, rotuloSituacao } from './documentos/formato';
import { acoesDistribuicao, SecaoDistribuicao } from './distribuicao';

const AREA = '/console/caixa-de-entrada';
const STATUS = InboundCteStatus.anyOf.map((s) => s.const);
const PAPEIS = InboundCteCarrierRole.anyOf.map((s) => s.const);

const PAPEL: Record<string, string> = {
  emitente: 'Emitente',
  tomador: 'Tomador',
  expedidor: 'Expedidor',
  recebedor: 'Recebedor',
  remetente: 'Remetente',
  destinatario: 'Destinatário',
  terceiro: 'Terceiro (subcontratada)',
};
const NFE: Record<string, string> = { importada: 'Importada', somente_chave: 'Somente a chave', vinculada: 'Vinculada a CT-e' };
/** How a document first arrived: by itself through the national distribution, or sent (upload, a contractor's hand-off, an import). */
const ORIGEM: Record<string, string> = {
  distribuicao: 'Distribuição (Ambiente Nacional)',
  envio: 'Enviado',
  importacao: 'Importada',
};
const origemTexto = (o: string) => ORIGEM[o] ?? o;

/** What reached the company from others: contractors' CT-e (GET /fiscal/cte-subcontratacao) and the NF-e imported. */
export function caixaDeEntrada(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/caixa-de-entrada', async (request, reply) => {
    const sessao = sessaoDe(request);
    const f = new Filtros(request.query);
    const search = f.texto('busca', 'Busca', 120);
    const status = f.opcao('status', 'Situação', STATUS);
    const papel = f.opcao('papel', 'Papel da transportadora', PAPEIS);
    const de = f.data('de', 'Recebidos a partir de');
    const ate = f.data('ate', 'Recebidos até');
    f.intervalo(de, ate);
    const [ctes, nfes, distribuicao] = await Promise.all([
      listar(
        f,
        () =>
          caixaCteList(deps.pool, sessao.company_id, {
            search,
            status,
            carrier_role: papel,
            from: de,
            to: ate,
            page: 1,
            per_page: 20,
            cursor: f.cursor(),
          }),
        { rows: [] as CaixaCteRow[], total: 0, next_cursor: null as string | null },
      ),
      nfeList(deps.pool, sessao.company_id, { page: 1, per_page: 20 }),
      distribuicaoDe(deps.pool, sessao.company_id, deps.config.environment),
    ]);
    const csrf = csrfDe(reply);
    return html(
      reply,
      <Pagina titulo="Caixa de entrada" sessao={sessao} csrf={csrf} area={AREA} aviso={avisoDe(request)}>
        <section aria-labelledby="ctes-recebidos">
          <h2 id="ctes-recebidos">CT-e recebidos de contratantes</h2>
          <form method="get" action={AREA} class="filtros" aria-label="Filtrar CT-e recebidos">
            <Campo nome="busca" rotulo="Busca" valor={f.valores.busca} ajuda="Chave de acesso, CNPJ ou nome do emitente" />
            <Selecao
              nome="status"
              rotulo="Situação"
              opcoes={[{ valor: '', rotulo: 'Todas' }, ...STATUS.map((s) => ({ valor: s, rotulo: rotuloSituacao(s) }))]}
              valor={f.valores.status ?? ''}
            />
            <Selecao
              nome="papel"
              rotulo="Papel da transportadora"
              opcoes={[{ valor: '', rotulo: 'Todos' }, ...PAPEIS.map((s) => ({ valor: s, rotulo: PAPEL[s] ?? s }))]}
              valor={f.valores.papel ?? ''}
            />
            <CampoData nome="de" rotulo="Recebidos a partir de" valor={f.valores.de} />
            <CampoData nome="ate" rotulo="Recebidos até" valor={f.valores.ate} />
            <button type="submit">Filtrar</button>
          </form>
          <Erros erros={f.erros} />
          {f.erros.length === 0 && <p>{ctes.total === 1 ? '1 CT-e recebido.' : `${ctes.total} CT-e recebidos.`}</p>}
          <Tabela
            legenda="CT-e recebidos"
            vazio="Nenhum CT-e recebido."
            linhas={ctes.rows}
            colunas={[
              { titulo: 'Série/Número', celula: (r) => `${r.cte.serie}/${r.cte.numero}` },
              { titulo: 'Emitente', celula: (r) => parteTexto(r.cte.emitente) },
              { titulo: 'Chave', celula: (r) => <code class="chave">{r.chave}</code> },
              {
                titulo: 'Situação',
                celula: (r) => (r.cancelamento ? `${rotuloSituacao(r.status)} · cancelado pela contratante` : rotuloSituacao(r.status)),
              },
              { titulo: 'Papel', celula: (r) => PAPEL[r.carrier_role] ?? r.carrier_role },
              { titulo: 'Origem', celula: (r) => origemTexto(r.origem) },
              { titulo: 'Recebido em', celula: (r) => dataHora(r.first_received_at) },
              { titulo: 'Valor', numero: true, celula: (r) => reais(r.cte.valor_prestacao_centavos) },
              {
                titulo: 'XML',
                celula: (r) => (
                  <a href={`${AREA}/${r.chave}/xml`} aria-label={`Baixar XML do CT-e ${r.chave}`}>
                    XML
                  </a>
                ),
              },
            ]}
          />
          <ProximaPagina href={f.proxima(AREA, ctes.next_cursor)} />
        </section>
        <SecaoDistribuicao d={distribuicao} sessao={sessao} csrf={csrf} ambiente={deps.config.environment} agora={deps.clock()} />
        <section aria-labelledby="nfe-importadas">
          <h2 id="nfe-importadas">NF-e importadas</h2>
          <p>{nfes.total === 1 ? '1 NF-e.' : `${nfes.total} NF-e.`} As mais recentes:</p>
          <Tabela
            legenda="NF-e importadas"
            vazio="Nenhuma NF-e importada."
            linhas={nfes.rows}
            colunas={[
              { titulo: 'Série/Número', celula: (n) => `${n.serie}/${n.numero}` },
              { titulo: 'Emitente', celula: (n) => n.emitente_nome ?? n.emitente_documento },
              { titulo: 'Chave', celula: (n) => <code class="chave">{n.chave}</code> },
              { titulo: 'Situação', celula: (n) => NFE[n.status] ?? n.status },
              { titulo: 'Origem', celula: (n) => origemTexto(n.origem) },
              { titulo: 'Recebida em', celula: (n) => dataHora(n.importada_em) },
              { titulo: 'Valor', numero: true, celula: (n) => (n.valor_total_centavos === null ? '—' : reais(n.valor_total_centavos)) },
            ]}
          />
        </section>
      </Pagina>,
      f.erros.length > 0 ? 400 : 200,
    );
  });

  acoesDistribuicao(app, deps);

  app.get<{ Params: { chave: string } }>('/caixa-de-entrada/:chave/xml', async (request, reply) => {
    const chave = request.params.chave;
    const row = isValidAccessKey(chave) ? await caixaCteOf(deps.pool, sessaoDe(request).company_id, chave) : null;
    if (!row) return paginaDeErro(request, reply, 404, 'CT-e não encontrado', 'Este CT-e não está na caixa de entrada da sua empresa.');
    const doc = await deps.documents.get(row.xml_sha256);
    if (!doc)
      return paginaDeErro(
        request,
        reply,
        503,
        'Arquivo indisponível',
        'O XML arquivado não pode ser lido agora. Tente de novo em instantes.',
      );
    return reply.type('application/xml').header('Content-Disposition', `inline; filename="${chave}.xml"`).send(doc.content);
  });
}
