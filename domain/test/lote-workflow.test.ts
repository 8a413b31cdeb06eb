import { type EventData, type LinhaPlanejada } from '@frete/contracts';
import { BLOCO_DO_LOTE, type ComandoDoFluxo, type EntradaDoLote, fold, loteDecider, type LoteEvent, reagirAoLote } from '../src';
import { linhaPlanejada, loteCriado, LOTE } from './lote-planejado';

/**
 * The batch as a workflow: given the batch's events, when an input arrives, then the commands the processor runs.
 * The rows' states and the batch's end are the decider's (domain/test/lote.test.ts); these are the steps between.
 */
const plano = (linha: number): LinhaPlanejada => linhaPlanejada(linha, `chave-${Math.floor(linha / 5)}`);
const base = LOTE;
const criado = (linhas: number, solicitante: string | null = null): LoteEvent => loteCriado(linhas, plano, solicitante);
const processada = (linha: number, status: 'pending' | 'duplicated' | 'failed' = 'pending'): EventData<'lote.linha_processada'> => ({
  ...base,
  linha,
  chave: plano(linha).chave,
  perna: null,
  tipo_servico: 1,
  status,
  counter_cte_id: status === 'failed' ? null : status === 'duplicated' ? `outro-${linha}` : `cte-${linha}`,
  documento_financeiro: null,
  error: status === 'failed' ? { code: 'cte_nao_recebido', message: 'not in the inbox' } : null,
});
const registrada = (linha: number, status?: 'pending' | 'duplicated' | 'failed'): LoteEvent => ({
  type: 'lote.linha_processada',
  data: processada(linha, status),
});

const given = (...events: LoteEvent[]) => ({
  when: (entrada: EntradaDoLote) => ({
    then: (...comandos: ComandoDoFluxo[]) => expect(reagirAoLote(fold(loteDecider, events), entrada)).toEqual(comandos),
  }),
});
const linhas = (de: number, ate: number) => Array.from({ length: ate - de }, (_, i) => plano(de + i));

describe('the batch workflow (reagirAoLote)', () => {
  it('its creation prepares the first block, of at most BLOCO_DO_LOTE rows', () => {
    given(criado(3))
      .when({ tipo: 'criado', batch_id: 'b-1' })
      .then({ tipo: 'PrepararLinhas', ...base, linhas: linhas(0, 3) });
    given(criado(BLOCO_DO_LOTE + 5))
      .when({ tipo: 'criado', batch_id: 'b-1' })
      .then({ tipo: 'PrepararLinhas', ...base, linhas: linhas(0, BLOCO_DO_LOTE) });
  });

  it("a block's last row recorded starts the next block; any other row asks nothing, nor does the last of the batch", () => {
    const n = BLOCO_DO_LOTE + 5;
    given(criado(n))
      .when({ tipo: 'linha_registrada', batch_id: 'b-1', linha: BLOCO_DO_LOTE - 1 })
      .then({ tipo: 'PrepararLinhas', ...base, linhas: linhas(BLOCO_DO_LOTE, n) });
    given(criado(n)).when({ tipo: 'linha_registrada', batch_id: 'b-1', linha: 3 }).then();
    given(criado(BLOCO_DO_LOTE))
      .when({ tipo: 'linha_registrada', batch_id: 'b-1', linha: BLOCO_DO_LOTE - 1 })
      .then();
  });

  it("prepared rows are recorded first, then the pending ones' drafts issued together; failed and duplicated rows issue nothing", () => {
    const prontas = [processada(0), processada(1, 'failed'), processada(2, 'duplicated'), processada(3)];
    given(criado(4))
      .when({ tipo: 'linhas_preparadas', ...base, linhas: prontas })
      .then(
        { tipo: 'RegistrarNoLote', comando: { type: 'RegistrarLinhas', ...base, linhas: prontas } },
        { tipo: 'EmitirContraCtes', company_id: 'sub', ctes: ['cte-0', 'cte-3'] },
      );
    const falhas = [processada(0, 'failed'), processada(1, 'duplicated')];
    given(criado(2))
      .when({ tipo: 'linhas_preparadas', ...base, linhas: falhas })
      .then({ tipo: 'RegistrarNoLote', comando: { type: 'RegistrarLinhas', ...base, linhas: falhas } });
    given(criado(2))
      .when({ tipo: 'linhas_preparadas', ...base, linhas: [] })
      .then();
  });

  it('a redelivered block prepares only the rows not recorded, and issues again the recorded pending ones (the emissor skips the sent)', () => {
    given(criado(4), registrada(0), registrada(1, 'failed'), registrada(2, 'duplicated'))
      .when({ tipo: 'criado', batch_id: 'b-1' })
      .then({ tipo: 'PrepararLinhas', ...base, linhas: [plano(3)] }, { tipo: 'EmitirContraCtes', company_id: 'sub', ctes: ['cte-0'] });
    given(criado(2), registrada(0, 'failed'), registrada(1, 'failed')).when({ tipo: 'criado', batch_id: 'b-1' }).then();
  });

  it("a refused counter-CT-e and a payout's outcome are recorded on the batch, whose decider decides the row and the end", () => {
    const recusa = { ...base, linha: 0, counter_cte_id: 'cte-0', error: { code: 'cte_rejeitado', message: 'cStat 539' } };
    given(criado(1), registrada(0))
      .when({ tipo: 'contra_cte_recusado', dados: recusa })
      .then({ tipo: 'RegistrarNoLote', comando: { type: 'RegistrarLinhaRejeitada', ...recusa } });
    const repasse = { ...base, linha: 0, counter_cte_id: 'cte-0', financeiro: 'ok' as const };
    given(criado(1), registrada(0))
      .when({ tipo: 'repasse_decidido', dados: repasse })
      .then({ tipo: 'RegistrarNoLote', comando: { type: 'RegistrarFinanceiroDaLinha', ...repasse } });
  });

  it('its end is told to the company that requested it under a grant, and to no one when the owner did', () => {
    const fim = { ...base, status: 'done' as const, total_linhas: 1, emitidas: 1, duplicadas: 0, falhas: 0 };
    given(criado(1, 'con')).when({ tipo: 'concluido', dados: fim }).then({ tipo: 'AvisarSolicitante', solicitante_company_id: 'con', fim });
    given(criado(1)).when({ tipo: 'concluido', dados: fim }).then();
  });

  it('a batch that does not exist asks for nothing', () => {
    given().when({ tipo: 'criado', batch_id: 'b-1' }).then();
    given()
      .when({ tipo: 'linha_registrada', batch_id: 'b-1', linha: BLOCO_DO_LOTE - 1 })
      .then();
  });
});
