import { type FastifyInstance } from 'fastify';
import { type CiotStatus } from '@frete/contracts';
import { ciotOf, type CiotRow, listarCiots } from '@frete/projections';
import { avisoDe, csrfDe, html, sessaoDe } from '../contexto';
import { ProximaPagina, Tabela } from '../html/componentes';
import { Pagina } from '../html/layout';
import { type ConsoleDeps } from '../deps';
import { cursorDe, dataHora, listar, naoEncontrada, POR_PAGINA, proxima, reais, UUID } from './operacoes-comum';

const AREA = '/console/ciot';

const SITUACAO: Record<CiotStatus, string> = {
  sent: 'Enviada',
  registrado: 'Registrada',
  retificado: 'Retificada',
  recusado: 'Recusada',
  bloqueado: 'Bloqueada',
  cancelado: 'Cancelada',
  encerrado: 'Encerrada',
};

const rota = ({ declaracao: { rota: r } }: CiotRow) => `${r.origem.municipio}/${r.origem.uf} → ${r.destino.municipio}/${r.destino.uf}`;

export function ciot(app: FastifyInstance, deps: ConsoleDeps) {
  app.get('/ciot', async (request, reply) => {
    const sessao = sessaoDe(request);
    const { rows, next_cursor } = await listar(() =>
      listarCiots(deps.pool, sessao.company_id, { page: 1, per_page: POR_PAGINA, cursor: cursorDe(request) }),
    );
    return html(
      reply,
      <Pagina titulo="Operações CIOT" sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <Tabela
          legenda="Operações de transporte (CIOT), da mais recente"
          vazio="Nenhuma operação CIOT ainda."
          linhas={rows}
          colunas={[
            { titulo: 'Criada em', celula: (c) => <a href={`${AREA}/${c.ciot_id}`}>{dataHora(c.created_at)}</a> },
            { titulo: 'CIOT', celula: (c) => c.ciot ?? '—' },
            { titulo: 'Situação', celula: (c) => SITUACAO[c.status] },
            { titulo: 'Referência', celula: (c) => c.referencia_externa ?? '—' },
            { titulo: 'Motorista', celula: (c) => c.declaracao.motorista.nome },
            { titulo: 'Frete', celula: (c) => reais(c.declaracao.valores.frete_centavos), numero: true },
          ]}
        />
        <ProximaPagina href={proxima(AREA, next_cursor)} />
      </Pagina>,
    );
  });

  app.get<{ Params: { id: string } }>('/ciot/:id', async (request, reply) => {
    const sessao = sessaoDe(request);
    const id = request.params.id;
    const c = UUID.test(id) ? await ciotOf(deps.pool, sessao.company_id, id.toLowerCase()) : null;
    if (!c) return naoEncontrada(request, reply, 'A operação CIOT');
    return html(
      reply,
      <Pagina titulo={`Operação CIOT ${c.ciot ?? ''}`.trim()} sessao={sessao} csrf={csrfDe(reply)} area={AREA} aviso={avisoDe(request)}>
        <dl class="detalhes">
          <dt>Situação</dt>
          <dd>{SITUACAO[c.status]}</dd>
          <dt>CIOT</dt>
          <dd>{c.ciot ?? '—'}</dd>
          <dt>Código de verificação</dt>
          <dd>{c.codigo_verificacao ?? '—'}</dd>
          <dt>Protocolo</dt>
          <dd>{c.protocolo ?? '—'}</dd>
          {c.motivo && (
            <>
              <dt>Motivo</dt>
              <dd>
                {c.motivo} {c.motivo_codigo ? `(${c.motivo_codigo})` : ''}
              </dd>
            </>
          )}
          <dt>Referência</dt>
          <dd>{c.referencia_externa ?? '—'}</dd>
          {c.cte_id && (
            <>
              <dt>CT-e</dt>
              <dd>
                <a href={`/console/cte/${c.cte_id}`}>{c.cte_chave ?? c.cte_id}</a>
              </dd>
            </>
          )}
          <dt>Contratado</dt>
          <dd>
            {c.declaracao.contratado.nome ?? ''} ({c.declaracao.contratado.documento})
          </dd>
          <dt>Motorista</dt>
          <dd>
            {c.declaracao.motorista.nome} ({c.declaracao.motorista.cpf})
          </dd>
          <dt>Rota</dt>
          <dd>{rota(c)}</dd>
          <dt>Veículos</dt>
          <dd>{c.declaracao.veiculos.map((v) => v.placa).join(', ')}</dd>
          <dt>Frete</dt>
          <dd>{reais(c.declaracao.valores.frete_centavos)}</dd>
          <dt>Registrada em</dt>
          <dd>{dataHora(c.registrado_em)}</dd>
          <dt>Encerrada em</dt>
          <dd>{dataHora(c.encerrado_em)}</dd>
          <dt>Cancelada em</dt>
          <dd>{dataHora(c.cancelado_em)}</dd>
        </dl>
        <Tabela
          legenda="Histórico da operação"
          vazio="Sem eventos."
          linhas={c.historico}
          colunas={[
            { titulo: 'Evento', celula: (h) => h.evento },
            { titulo: 'Em', celula: (h) => dataHora(h.em) },
            { titulo: 'Protocolo', celula: (h) => h.protocolo ?? '—' },
            { titulo: 'Motivo', celula: (h) => h.motivo ?? '—' },
          ]}
        />
        <p>
          <a href={AREA}>Voltar às operações</a>
        </p>
      </Pagina>,
    );
  });
}
