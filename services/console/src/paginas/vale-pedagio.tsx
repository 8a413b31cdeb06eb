import { type FastifyInstance } from 'fastify';
import { type SituacaoValePedagio, type TipoMovimento } from '@frete/contracts';
import { extratoContaOperacional, listarValesPedagio, resumoContaOperacional, valePedagioOf } from '@frete/projections';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { ProximaPagina, Tabela } from '../html/componentes';
import { Pagina } from '../html/layout';
import { type ConsoleDeps } from '../deps';
import { cursorDe, dataHora, listar, naoEncontrada, POR_PAGINA, proxima, reais, UUID } from './operacoes-comum';

const AREA = '/console/vale-pedagio';

const SITUACAO: Record<SituacaoValePedagio, string> = { emitido: 'Emitido', em_uso: 'Em uso', cancelado: 'Cancelado' };
const MOVIMENTO: Record<TipoMovimento, string> = { credito: 'Crédito', debito: 'Débito', estorno: 'Estorno' };

/** A signed amount (debits are negative in the ledger). */
const assinado = (centavos: number) => (centavos < 0 ? `− ${reais(-centavos)}` : reais(centavos));

export function valePedagio(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/vale-pedagio', async (request, reply) => {
    const sessao = sessaoDe(request);
    const { rows, next_cursor } = await listar(() =>
      listarValesPedagio(deps.pool, sessao.company_id, { page: 1, per_page: POR_PAGINA, cursor: cursorDe(request) }),
    );
    const conta = await resumoContaOperacional(deps.pool, sessao.company_id);
    return html(
      reply,
      <Pagina titulo="Vale-pedágio" sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <section aria-label="Conta operacional">
          <h2>Conta operacional</h2>
          <dl class="contagens">
            <div>
              <dt>Saldo</dt>
              <dd>{reais(conta.saldo_centavos)}</dd>
            </div>
            <div>
              <dt>Créditos</dt>
              <dd>{reais(conta.creditos_centavos)}</dd>
            </div>
            <div>
              <dt>Débitos</dt>
              <dd>{reais(conta.debitos_centavos)}</dd>
            </div>
            <div>
              <dt>Estornos</dt>
              <dd>{reais(conta.estornos_centavos)}</dd>
            </div>
          </dl>
          <p>
            <a href={`${AREA}/extrato`}>Ver o extrato ({conta.movimentos} movimentos)</a>
          </p>
        </section>
        <Tabela
          legenda="Vales-pedágio da empresa, do mais recente"
          vazio="Nenhum vale-pedágio ainda."
          linhas={rows}
          colunas={[
            { titulo: 'Número', celula: (v) => <a href={`${AREA}/${v.vale_pedagio_id}`}>{v.numero}</a> },
            { titulo: 'Emitido em', celula: (v) => dataHora(v.emitido_em) },
            { titulo: 'Situação', celula: (v) => SITUACAO[v.situacao] },
            { titulo: 'Placa', celula: (v) => v.placa },
            { titulo: 'Rota', celula: (v) => `${v.origem.municipio}/${v.origem.uf} → ${v.destino.municipio}/${v.destino.uf}` },
            { titulo: 'Total', celula: (v) => reais(v.valor_total_centavos), numero: true },
          ]}
        />
        <ProximaPagina href={proxima(AREA, next_cursor)} />
      </Pagina>,
    );
  });

  app.get('/vale-pedagio/extrato', async (request, reply) => {
    const sessao = sessaoDe(request);
    const { rows, next_cursor } = await listar(() =>
      extratoContaOperacional(deps.pool, sessao.company_id, { page: 1, per_page: POR_PAGINA, cursor: cursorDe(request), ordem: 'desc' }),
    );
    return html(
      reply,
      <Pagina titulo="Extrato da conta operacional" sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <Tabela
          legenda="Movimentos da conta operacional, do mais recente"
          vazio="Nenhum movimento ainda."
          linhas={rows}
          colunas={[
            { titulo: 'Nº', celula: (m) => m.sequencia, numero: true },
            { titulo: 'Data', celula: (m) => dataHora(m.registrado_em) },
            { titulo: 'Tipo', celula: (m) => MOVIMENTO[m.tipo] },
            {
              titulo: 'Referência',
              celula: (m) =>
                m.vale_pedagio_id ? <a href={`${AREA}/${m.vale_pedagio_id}`}>{m.referencia ?? 'Vale-pedágio'}</a> : (m.referencia ?? '—'),
            },
            { titulo: 'Valor', celula: (m) => assinado(m.valor_centavos), numero: true },
            { titulo: 'Saldo após', celula: (m) => assinado(m.saldo_apos_centavos), numero: true },
          ]}
        />
        <ProximaPagina href={proxima(`${AREA}/extrato`, next_cursor)} />
        <p>
          <a href={AREA}>Voltar ao vale-pedágio</a>
        </p>
      </Pagina>,
    );
  });

  app.get<{ Params: { id: string } }>('/vale-pedagio/:id', async (request, reply) => {
    const sessao = sessaoDe(request);
    const id = request.params.id;
    const v = UUID.test(id) ? await valePedagioOf(deps.pool, sessao.company_id, id.toLowerCase()) : null;
    if (!v) return naoEncontrada(request, reply, 'O vale-pedágio');
    return html(
      reply,
      <Pagina titulo={`Vale-pedágio ${v.numero}`} sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <dl class="detalhes">
          <dt>Situação</dt>
          <dd>{SITUACAO[v.situacao]}</dd>
          <dt>Emitido em</dt>
          <dd>{dataHora(v.emitido_em)}</dd>
          <dt>Cancelável até</dt>
          <dd>{dataHora(v.cancelavel_ate)}</dd>
          <dt>Rota</dt>
          <dd>
            {v.origem.municipio}/{v.origem.uf} → {v.destino.municipio}/{v.destino.uf} ({v.distancia_km} km)
          </dd>
          <dt>Veículo</dt>
          <dd>
            {v.placa} · categoria {v.categoria} · {v.eixos} eixos
          </dd>
          <dt>Motorista</dt>
          <dd>{v.motorista ? `${v.motorista.nome ?? ''} (${v.motorista.cpf})` : '—'}</dd>
          <dt>Fornecedor</dt>
          <dd>
            {v.fornecedor.nome} ({v.fornecedor.cnpj})
          </dd>
          <dt>Pedágio</dt>
          <dd>{reais(v.valor_pedagio_centavos)}</dd>
          <dt>Taxa</dt>
          <dd>{reais(v.taxa_centavos)}</dd>
          <dt>Total</dt>
          <dd>{reais(v.valor_total_centavos)}</dd>
          {v.estorno_centavos !== null && (
            <>
              <dt>Estorno</dt>
              <dd>
                {reais(v.estorno_centavos)} em {dataHora(v.estornado_em)}
              </dd>
            </>
          )}
        </dl>
        <Tabela
          legenda="Praças de pedágio"
          vazio="Nenhuma praça na rota."
          linhas={v.pracas}
          colunas={[
            { titulo: 'Praça', celula: (p) => p.nome },
            { titulo: 'Rodovia', celula: (p) => `${p.rodovia} km ${p.km}` },
            { titulo: 'Tarifa', celula: (p) => reais(p.tarifa_centavos), numero: true },
            { titulo: 'Passagem', celula: (p) => dataHora(v.passagens[p.codigo] ?? null) },
          ]}
        />
        <p>
          <a href={AREA}>Voltar ao vale-pedágio</a>
        </p>
      </Pagina>,
    );
  });
}
