import { type FastifyInstance } from 'fastify';
import { type EventoAuditado } from '@frete/contracts';
import { CTE, type CteLido, tipoDoTpEvento } from '@frete/domain';
import { cteByKey, cteList, cteOf, type CteRow } from '@frete/projections';
import { dacteDoArquivo } from '@frete/documents';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { Pagina } from '../html/layout';
import { Campo, CampoData, Selecao, Tabela } from '../html/componentes';
import { type ConsoleDeps } from '../deps';
import { Filtros, listar } from './documentos/filtros';
import { Fatos, dataHora, lugar, opcoesDe, parteTexto, reais, rotuloOrigem, rotuloSituacao } from './documentos/formato';
import { Historico, historicoDe } from './documentos/historico';
import { itensDoDocumento, numeroDe } from './documentos/comum';
import { CabecalhoDoDocumento, listaDoDocumento, paginasDoDocumento, tituloDoDocumento } from './documentos/documento-fiscal';

/** The CT-e of the company (own issues, delivered ones and counter-CT-e), its documents and history. */
export function cte(app: FastifyInstance, deps: ConsoleDeps) {
  const { area, naoEncontrado, daEmpresa, comXml } = paginasDoDocumento(app, deps, CTE, {
    ler: cteOf,
    imprimir: (request, row, xml) => dacteDoArquivo(xml, row, deps.config.environment, request.log),
  });

  app.get('/cte', async (request, reply) => {
    const sessao = sessaoDe(request);
    const f = new Filtros(request.query);
    const status = f.opcao('status', 'Situação', CTE.situacoes);
    const de = f.data('de', 'Emitidos a partir de');
    const ate = f.data('ate', 'Emitidos até');
    f.intervalo(de, ate);
    const chave = f.texto('chave', 'Chave de acesso', 60)?.replace(/\D/g, '');
    if (chave !== undefined && chave.length !== 44) f.erros.push('Chave de acesso: informe os 44 dígitos.');
    const vazio = { rows: [] as CteRow[], total: 0, next_cursor: null as string | null };
    const lista = await listar(
      f,
      async () => {
        // The key names at most one CT-e: the read model's lookup by key, still within the company.
        if (chave) {
          const r = await cteByKey(deps.pool, sessao.company_id, chave);
          const passa = r && (!status || r.situacao === status);
          return { rows: passa ? [r] : [], total: passa ? 1 : 0, next_cursor: null };
        }
        return cteList(deps.pool, sessao.company_id, { situacao: status, from: de, to: ate, page: 1, per_page: 20, cursor: f.cursor() });
      },
      vazio,
    );
    return listaDoDocumento({
      especie: CTE,
      request,
      reply,
      filtros: f,
      lista,
      colunas: [
        { titulo: 'Série/Número', celula: (r) => <a href={`${area}/${r.cte_id}`}>{numeroDe(r)}</a> },
        { titulo: 'Situação', celula: (r) => rotuloSituacao(r.situacao) },
        { titulo: 'Origem', celula: (r) => rotuloOrigem(r.origem) },
        { titulo: 'Chave', celula: (r) => (r.chave ? <code class="chave">{r.chave}</code> : '—') },
        { titulo: 'Tomador', celula: (r) => parteTexto(r.cte?.tomador.parte) },
        { titulo: 'Emissão', celula: (r) => dataHora(r.cte?.data_emissao ?? r.created_at) },
        { titulo: 'Valor', numero: true, celula: (r) => (r.cte ? reais(r.cte.valor_prestacao_centavos) : '—') },
      ],
      children: (
        <>
          <Selecao nome="status" rotulo="Situação" opcoes={opcoesDe(CTE.situacoes, 'Todas')} valor={f.valores.status ?? ''} />
          <CampoData nome="de" rotulo="Emitidos a partir de" valor={f.valores.de} />
          <CampoData nome="ate" rotulo="Emitidos até" valor={f.valores.ate} />
          <Campo nome="chave" rotulo="Chave de acesso" valor={f.valores.chave} atributos={{ inputmode: 'numeric' }} />
        </>
      ),
    });
  });

  app.get<{ Params: { id: string } }>('/cte/:id', async (request, reply) => {
    const sessao = sessaoDe(request);
    const row = await daEmpresa(sessao.company_id, request.params.id);
    if (!row) return naoEncontrado(request, reply);
    const historico = await historicoDe(request, deps, sessao.company_id, 'cte', row.cte_id);
    const c = row.cte;
    return html(
      reply,
      <Pagina titulo={tituloDoDocumento(CTE, row)} sessao={sessao} csrf={csrfDe(reply)} area={area} aviso={avisoDe(request)}>
        <CabecalhoDoDocumento
          especie={CTE}
          id={row.cte_id}
          comArquivos={comXml(row) && row.xml_sha256 !== null}
          itens={itensDoDocumento(row, c?.protocolo, c?.data_emissao ?? null, [
            ['Origem', rotuloOrigem(row.origem)],
            ['Tipo de serviço', String(c?.tipo_servico ?? row.service_type)],
          ])}
        />
        {c && <Documento c={c} />}
        {row.contra_cte && (
          <section aria-labelledby="contra">
            <h2 id="contra">Contra-CT-e</h2>
            <Fatos
              rotulo="Vínculo do contra-CT-e"
              itens={[
                ['CT-e do contratante', <code key="k">{row.contra_cte.chave_original}</code>],
                ['CNPJ do contratante', row.contra_cte.contratante_cnpj],
                ['Valor', reais(row.contra_cte.valor_centavos)],
              ]}
            />
          </section>
        )}
        <section aria-labelledby="eventos">
          <h2 id="eventos">Eventos fiscais</h2>
          <EventosFiscais historico={historico} />
        </section>
        <section aria-labelledby="historico">
          <h2 id="historico">Histórico</h2>
          <Historico eventos={historico} />
        </section>
      </Pagina>,
    );
  });
}

/** What the authorized XML says: parties, route and values. */
function Documento({ c }: { c: CteLido }) {
  const partes: [string, CteLido['emitente'] | null][] = [
    ['Emitente', c.emitente],
    ['Remetente', c.remetente],
    ['Expedidor', c.expedidor],
    ['Recebedor', c.recebedor],
    ['Destinatário', c.destinatario],
    [`Tomador (${c.tomador.papel})`, c.tomador.parte],
  ];
  return (
    <>
      <section aria-labelledby="partes">
        <h2 id="partes">Partes</h2>
        <Tabela
          legenda="Partes do CT-e"
          vazio="Nenhuma parte informada."
          linhas={partes.filter(([, p]) => p !== null)}
          colunas={[
            { titulo: 'Papel', celula: ([papel]) => papel },
            { titulo: 'Nome e documento', celula: ([, p]) => parteTexto(p) },
            { titulo: 'Município/UF', celula: ([, p]) => lugar(p) },
          ]}
        />
      </section>
      <section aria-labelledby="valores">
        <h2 id="valores">Prestação e valores</h2>
        <Fatos
          rotulo="Prestação e valores"
          itens={[
            ['Início', `${c.inicio.municipio}/${c.inicio.uf}`],
            ['Fim', `${c.fim.municipio}/${c.fim.uf}`],
            ['CFOP', c.cfop],
            ['Valor da prestação', reais(c.valor_prestacao_centavos)],
            ['Valor a receber', reais(c.valor_receber_centavos)],
            ...(c.icms?.valor_centavos != null ? ([['ICMS', reais(c.icms.valor_centavos)]] as [string, string][]) : []),
          ]}
        />
        {c.componentes.length > 0 && (
          <Tabela
            legenda="Componentes do valor"
            vazio=""
            linhas={c.componentes}
            colunas={[
              { titulo: 'Componente', celula: (k) => k.nome },
              { titulo: 'Valor', numero: true, celula: (k) => reais(k.valor_centavos) },
            ]}
          />
        )}
        {c.nfe_chaves.length > 0 && (
          <>
            <h3>NF-e transportadas</h3>
            <ul class="chaves">
              {c.nfe_chaves.map((k) => (
                <li key={k}>
                  <code class="chave">{k}</code>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}

const TIPO_EVENTO: Record<string, string> = {
  cancelamento: 'Cancelamento',
  carta_correcao: 'Carta de correção',
  entrega: 'Comprovante de entrega',
  entrega_cancelamento: 'Cancelamento do comprovante de entrega',
};

interface LinhaEvento {
  event_key: string;
  tipo: string;
  sequencia: number | null;
  situacao: string;
  protocolo: string | null;
  detalhe: string | null;
  quando: string;
}

/** The CT-e's fiscal events (cancellation, CC-e, delivery proof…), one line each in its latest state, from its stream. */
function eventosFiscais(historico: EventoAuditado[]): LinhaEvento[] {
  const porChave = new Map<string, LinhaEvento>();
  for (const e of historico) {
    if (!e.type.startsWith('cte.evento_')) continue;
    const d = e.data as {
      event_key?: string;
      tp_evento?: string;
      n_seq_evento?: number;
      protocolo?: { numero: string };
      motivo?: string;
      cstat?: number;
    };
    if (!d.event_key) continue;
    const antes = porChave.get(d.event_key);
    const tipo = tipoDoTpEvento(d.tp_evento ?? '');
    porChave.set(d.event_key, {
      event_key: d.event_key,
      tipo: (tipo && TIPO_EVENTO[tipo]) ?? tipo ?? d.tp_evento ?? '—',
      sequencia: d.n_seq_evento ?? antes?.sequencia ?? null,
      situacao: e.type.slice('cte.evento_'.length),
      protocolo: d.protocolo?.numero ?? antes?.protocolo ?? null,
      detalhe: d.motivo ? `${d.cstat ?? ''} ${d.motivo}`.trim() : null,
      quando: e.recorded_at,
    });
  }
  return [...porChave.values()];
}

function EventosFiscais({ historico }: { historico: EventoAuditado[] | null }) {
  if (historico === null) return <p class="vazio">Os eventos não podem ser lidos agora. Tente de novo em instantes.</p>;
  return (
    <Tabela
      legenda="Eventos fiscais"
      vazio="Nenhum evento fiscal."
      linhas={eventosFiscais(historico)}
      colunas={[
        { titulo: 'Evento', celula: (e) => e.tipo },
        { titulo: 'Sequência', numero: true, celula: (e) => e.sequencia ?? '—' },
        { titulo: 'Situação', celula: (e) => rotuloSituacao(e.situacao) },
        { titulo: 'Protocolo', celula: (e) => e.protocolo ?? '—' },
        { titulo: 'Retorno', celula: (e) => e.detalhe ?? '—' },
        { titulo: 'Quando', celula: (e) => dataHora(e.quando) },
      ]}
    />
  );
}
