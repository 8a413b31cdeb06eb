import { type FastifyInstance } from 'fastify';
import { CTE, MDFE, pendenciasConfiguracao } from '@frete/domain';
import { atividadeOf, certificadoOf, configuracaoOf, cteList, mdfeList } from '@frete/projections';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { AREAS, Pagina } from '../html/layout';
import { GraficoDeBarras } from '../html/grafico';
import { type ConsoleDeps } from '../deps';
import { dataHora, rotuloSituacao } from './documentos/formato';

const DIA = 86_400_000;

/** The indicators of GET /v1/fiscal/painel, from the same read models. */
async function painelDe(deps: ConsoleDeps, companyId: string) {
  const [cert, conf, atividade] = await Promise.all([
    certificadoOf(deps.pool, companyId),
    configuracaoOf(deps.pool, companyId),
    atividadeOf(deps.pool, companyId),
  ]);
  return {
    certificado: {
      presente: cert !== null,
      dias_para_expirar: cert ? Math.floor((cert.valido_ate.getTime() - deps.clock().getTime()) / DIA) : null,
    },
    pendencias: pendenciasConfiguracao(conf),
    credenciais_ativas: atividade.active_credentials,
    eventos_registrados: atividade.events_count,
    ultima_atividade: atividade.last_event_at,
  };
}

/** How many documents are in each situation: the lists' totals (the API's list queries), one per situation. */
async function porSituacao(situacoes: readonly string[], total: (status: string) => Promise<number>) {
  const totais = await Promise.all(situacoes.map(total));
  return situacoes.map((s, i) => ({ rotulo: rotuloSituacao(s), valor: totais[i]! }));
}

export function inicio(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/', async (request, reply) => {
    const sessao = sessaoDe(request);
    const empresa = sessao.company_id;
    const [painel, ctes, mdfes] = await Promise.all([
      painelDe(deps, empresa),
      porSituacao(CTE.situacoes, async (situacao) => (await cteList(deps.pool, empresa, { situacao, page: 1, per_page: 1 })).total),
      porSituacao(MDFE.situacoes, async (situacao) => (await mdfeList(deps.pool, empresa, { situacao, page: 1, per_page: 1 })).total),
    ]);
    const dias = painel.certificado.dias_para_expirar;
    return html(
      reply,
      <Pagina titulo="Início" sessao={sessao} csrf={csrfDe(reply)} area="/console" aviso={avisoDe(request)}>
        <section aria-labelledby="indicadores">
          <h2 id="indicadores">Indicadores fiscais</h2>
          <ul class="situacao-fiscal">
            <li>Certificado A1: {painel.certificado.presente ? (dias !== null && dias < 0 ? 'vencido' : 'presente') : 'não enviado'}</li>
            <li>
              Configuração fiscal: {painel.pendencias.length === 0 ? 'completa' : `incompleta (falta: ${painel.pendencias.join(', ')})`}
            </li>
            <li>Última atividade: {dataHora(painel.ultima_atividade)}</li>
          </ul>
          <div class="graficos">
            <GraficoDeBarras
              id="grafico-atividade"
              titulo="Atividade da integração"
              barras={[
                { rotulo: 'Eventos registrados', valor: painel.eventos_registrados },
                { rotulo: 'Credenciais ativas', valor: painel.credenciais_ativas },
              ]}
            />
            {dias !== null && (
              <GraficoDeBarras
                id="grafico-certificado"
                titulo="Validade do certificado"
                escala={365}
                barras={[{ rotulo: 'Dias para expirar', valor: Math.max(dias, 0), texto: `${dias} dias` }]}
              />
            )}
            <GraficoDeBarras id="grafico-cte" titulo="CT-e por situação" barras={ctes} />
            <GraficoDeBarras id="grafico-mdfe" titulo="MDF-e por situação" barras={mdfes} />
          </div>
        </section>
        <section aria-labelledby="areas-titulo">
          <h2 id="areas-titulo">Áreas</h2>
          <ul class="grade">
            {AREAS.filter((a) => a.href !== '/console' && (!a.so || a.so === sessao.papel)).map((a) => (
              <li key={a.href} class="cartao">
                <a href={a.href}>{a.rotulo}</a>
              </li>
            ))}
          </ul>
        </section>
      </Pagina>,
    );
  });
}
