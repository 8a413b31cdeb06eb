import { type EventData, type LinhaPlanejada } from '@frete/contracts';
import { type ComandoDoFluxo, fold, loteDecider, type LoteEvent, reagirAoLote } from '@frete/domain';
import { AGORA, especificacaoDeFluxo } from '../support/especificacao';
import { linhaPlanejada, loteCriado, LOTE } from '../../domain/test/lote-planejado';

/**
 * The batch workflow fed by other aggregates' outcomes (the authority's refusal of a counter-CT-e, the payout's
 * registration, the batch's end for its requester), and what the batch's decider then decides with the command it
 * returns: the steps the emission and payout processors run between them (test/api/lote-financeiro asserts the same
 * over PostgreSQL). The workflow's own steps, block by block, are domain/test/lote-workflow.
 */
const base = LOTE;
const plano = (linha: number): LinhaPlanejada => linhaPlanejada(linha, `chave-${linha}`);
const criado = (linhas: number, solicitante: string | null = null): LoteEvent => loteCriado(linhas, plano, solicitante);
const pendente = (linha: number): LoteEvent => ({
  type: 'lote.linha_processada',
  data: {
    ...base,
    linha,
    chave: plano(linha).chave,
    perna: null,
    tipo_servico: 1,
    status: 'pending',
    counter_cte_id: `cte-${linha}`,
    documento_financeiro: null,
    error: null,
  },
});

const fluxo = especificacaoDeFluxo(loteDecider, reagirAoLote);

/** What the batch's decider decides for the workflow's records, in order, on the same history. */
function decididos(historia: LoteEvent[], comandos: ComandoDoFluxo[]): LoteEvent[] {
  let estado = fold(loteDecider, historia);
  const eventos: LoteEvent[] = [];
  for (const c of comandos) {
    if (c.tipo !== 'RegistrarNoLote') continue;
    const novos = loteDecider.decide(c.comando, estado, { now: AGORA });
    estado = novos.reduce(loteDecider.evolve, estado);
    eventos.push(...novos);
  }
  return eventos;
}

describe('the batch workflow fed by other aggregates', () => {
  it("the payout's registration of the last pending row: the row is emitted, its financial step recorded, the batch done; a redelivery decides nothing", () => {
    const emitida: LoteEvent = { type: 'lote.linha_emitida', data: { ...base, linha: 0, counter_cte_id: 'cte-0' } };
    const historia = [criado(2), pendente(0), pendente(1), emitida];
    const antes: LoteEvent = { type: 'lote.financeiro_registrado', data: { ...base, linha: 0, counter_cte_id: 'cte-0', financeiro: 'ok' } };
    const dados: EventData<'lote.financeiro_registrado'> = { ...base, linha: 1, counter_cte_id: 'cte-1', financeiro: 'ok' };
    const quando = fluxo.given(...historia, antes).when({ tipo: 'repasse_decidido', dados });
    quando.then({ tipo: 'RegistrarNoLote', comando: { type: 'RegistrarFinanceiroDaLinha', ...dados } });
    const novos = decididos([...historia, antes], quando.comandos());
    expect(novos).toEqual([
      { type: 'lote.linha_emitida', data: { ...base, linha: 1, counter_cte_id: 'cte-1' } },
      { type: 'lote.financeiro_registrado', data: dados },
      { type: 'lote.concluido', data: { ...base, status: 'done', total_linhas: 2, emitidas: 2, duplicadas: 0, falhas: 0 } },
    ]);
    expect(decididos([...historia, antes, ...novos], quando.comandos())).toEqual([]);
  });

  it("the authority's refusal of the only pending row: the row is rejected and the batch failed; a redelivery decides nothing", () => {
    const historia = [criado(1), pendente(0)];
    const recusa: EventData<'lote.linha_rejeitada'> = {
      ...base,
      linha: 0,
      counter_cte_id: 'cte-0',
      error: { code: 'cte_rejeitado', message: 'cStat 539' },
    };
    const quando = fluxo.given(...historia).when({ tipo: 'contra_cte_recusado', dados: recusa });
    quando.then({ tipo: 'RegistrarNoLote', comando: { type: 'RegistrarLinhaRejeitada', ...recusa } });
    const novos = decididos(historia, quando.comandos());
    expect(novos).toEqual([
      { type: 'lote.linha_rejeitada', data: recusa },
      { type: 'lote.concluido', data: { ...base, status: 'failed', total_linhas: 1, emitidas: 0, duplicadas: 0, falhas: 1 } },
    ]);
    expect(decididos([...historia, ...novos], quando.comandos())).toEqual([]);
  });

  it("a refusal naming another counter-CT-e than the row's (a duplicated row's) moves nothing", () => {
    const historia = [criado(1), pendente(0)];
    const recusa = { ...base, linha: 0, counter_cte_id: 'outro', error: { code: 'cte_rejeitado', message: 'cStat 539' } };
    expect(
      decididos(
        historia,
        fluxo
          .given(...historia)
          .when({ tipo: 'contra_cte_recusado', dados: recusa })
          .comandos(),
      ),
    ).toEqual([]);
  });

  it('the end is told to the company that requested the batch under a grant (its record: solicitacao-lote.unit.test)', () => {
    const fim = { ...base, status: 'done' as const, total_linhas: 1, emitidas: 1, duplicadas: 0, falhas: 0 };
    fluxo
      .given(criado(1, 'contratante'))
      .when({ tipo: 'concluido', dados: fim })
      .then({ tipo: 'AvisarSolicitante', solicitante_company_id: 'contratante', fim });
  });
});
