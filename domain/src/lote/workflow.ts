import { type EventData, type LinhaPlanejada } from '@frete/contracts';
import { type LoteCommand, type LoteState } from './decider';

/**
 * Rows walked per delivery. A batch is walked in blocks, each started by the record of the previous block's last
 * row, so that no delivery outlasts a Kafka session and the counter-CT-e of the first rows go to the authority while
 * later rows are still being prepared. A block's rows are prepared side by side and issued together (numbers in one
 * append), so a block of 100 went from 50 to 80 keys/s over 25 (`bench/lote`).
 */
export const BLOCO_DO_LOTE = 100;

/**
 * What the batch is told: its own creation and blocks, the outcome of its rows' preparation, and the later life of
 * their counter-CT-e (refused by the authority, or authorized and given its payout's outcome), as plain data.
 */
export type EntradaDoLote =
  | { tipo: 'criado'; batch_id: string }
  /** The record of a row; only a block's last row starts the next block. */
  | { tipo: 'linha_registrada'; batch_id: string; linha: number }
  /** What preparing a block's rows gave, in row order. */
  | { tipo: 'linhas_preparadas'; batch_id: string; company_id: string; linhas: EventData<'lote.linha_processada'>[] }
  | { tipo: 'contra_cte_recusado'; dados: EventData<'lote.linha_rejeitada'> }
  /** A payout enters its group only from an authorization: its outcome says both. */
  | { tipo: 'repasse_decidido'; dados: EventData<'lote.financeiro_registrado'> }
  | { tipo: 'concluido'; dados: EventData<'lote.concluido'> };

/** What the processor runs for the batch, in order. */
export type ComandoDoFluxo =
  /** Prepare these planned rows' counter-CT-e (key taken, draft made); their outcomes come back as `linhas_preparadas`. */
  | { tipo: 'PrepararLinhas'; batch_id: string; company_id: string; linhas: LinhaPlanejada[] }
  /** Record on the batch (its decider decides the rows and the batch's end). */
  | { tipo: 'RegistrarNoLote'; comando: LoteCommand }
  /** Issue these counter-CT-e drafts together; one already requested is left to the emission processor. */
  | { tipo: 'EmitirContraCtes'; company_id: string; ctes: string[] }
  /** Tell the company that requested the batch under a grant how it ended, in its own log. */
  | { tipo: 'AvisarSolicitante'; solicitante_company_id: string; fim: EventData<'lote.concluido'> };

/** Whether an input can ask for work: a row's record does only when it ends a block (the rest must not wait their turn). */
export const entradaPedeTrabalho = (linha: number): boolean => (linha + 1) % BLOCO_DO_LOTE === 0;

/** The block whose first row is `inicio`: the rows still to prepare, and those recorded pending whose draft may not have left. */
function bloco(state: LoteState, inicio: number): ComandoDoFluxo[] {
  if (!state.existe || inicio >= state.linhas.length) return [];
  const fim = Math.min(inicio + BLOCO_DO_LOTE, state.linhas.length);
  const aPreparar: LinhaPlanejada[] = [];
  const aEmitir: string[] = [];
  for (let n = inicio; n < fim; n++) {
    const feita = state.processadas[n];
    if (!feita) aPreparar.push(state.linhas[n]!);
    // A redelivery may have stopped between recording the row and issuing its document.
    else if (feita.status === 'pending' && feita.counter_cte_id) aEmitir.push(feita.counter_cte_id);
  }
  const comandos: ComandoDoFluxo[] = [];
  if (aPreparar.length > 0)
    comandos.push({ tipo: 'PrepararLinhas', batch_id: state.batch_id!, company_id: state.company_id!, linhas: aPreparar });
  if (aEmitir.length > 0) comandos.push({ tipo: 'EmitirContraCtes', company_id: state.company_id!, ctes: aEmitir });
  return comandos;
}

/** A row's outcome: what the workflow returns for it does not depend on the batch's state (its decider checks that at the append). */
export const desfechoDaLinha = (
  entrada: EntradaDoLote,
): entrada is Extract<EntradaDoLote, { tipo: 'contra_cte_recusado' | 'repasse_decidido' }> =>
  entrada.tipo === 'contra_cte_recusado' || entrada.tipo === 'repasse_decidido';

/**
 * The batch as a workflow: given its state and one input, the commands to run. Pure; the processor delivers the input,
 * runs what this returns (feeding a preparation's outcome back in as `linhas_preparadas`) and records through the
 * batch's decider, which alone decides each row's state and the batch's end.
 */
export function reagirAoLote(state: LoteState, entrada: EntradaDoLote): ComandoDoFluxo[] {
  switch (entrada.tipo) {
    case 'criado':
      return bloco(state, 0);
    case 'linha_registrada':
      return entradaPedeTrabalho(entrada.linha) ? bloco(state, entrada.linha + 1) : [];
    case 'linhas_preparadas': {
      if (entrada.linhas.length === 0) return [];
      const registrar: ComandoDoFluxo = {
        tipo: 'RegistrarNoLote',
        comando: { type: 'RegistrarLinhas', batch_id: entrada.batch_id, company_id: entrada.company_id, linhas: entrada.linhas },
      };
      // Recorded first, then issued: a counter-CT-e's outcome always finds its row.
      const ctes = entrada.linhas.filter((l) => l.status === 'pending').map((l) => l.counter_cte_id!);
      return ctes.length > 0 ? [registrar, { tipo: 'EmitirContraCtes', company_id: entrada.company_id, ctes }] : [registrar];
    }
    case 'contra_cte_recusado':
      return [{ tipo: 'RegistrarNoLote', comando: { type: 'RegistrarLinhaRejeitada', ...entrada.dados } }];
    case 'repasse_decidido':
      return [{ tipo: 'RegistrarNoLote', comando: { type: 'RegistrarFinanceiroDaLinha', ...entrada.dados } }];
    case 'concluido':
      return state.solicitante_company_id
        ? [{ tipo: 'AvisarSolicitante', solicitante_company_id: state.solicitante_company_id, fim: entrada.dados }]
        : [];
  }
}
