import { type ContraCteVinculo, type EventData, type PagamentoMantido, type RecordedEvent } from '@frete/contracts';
import {
  cancelamentoDe,
  comandoDoCancelamento,
  type FaseCancelamento,
  pagamentosMantidos,
  repasseDecider,
  type RepasseEvent,
  type RepasseState,
  repasseStream,
} from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { type CommandContext, type CommandDeps, execute, type ExecuteOptions } from '../commands/execute';
import { type PayoutDeps, contextoDo } from './deps';
import { vinculoDoCte } from './contra-cte';

/** tpEvento 110111: the CT-e's cancellation. */
export const TP_CANCELAMENTO = '110111';

/** What the cancellation did to the driver's payout of a counter-CT-e, as its answer tells the carrier. */
export interface RepasseNoCancelamento {
  /** The payout is cancelled (the authority registered the cancellation); false while it decides. */
  cancelado: boolean;
  /** Held: the cancellation is at the authority, nothing is released or ordered until its verdict. */
  em_cancelamento: boolean;
  parcelas_canceladas: number[];
  /** Installments whose money had already left (settled, or handed to the bank rail): they stay paid. */
  parcelas_pagas: PagamentoMantido[];
  /** Payment orders taken back before they reached the bank rail, by this answer's decision or the request's hold. */
  ordens_retiradas: { posicao: number; ordem_id: string; valor_centavos: number }[];
}

export interface CteCancelado {
  cte_id: string;
  company_id: string;
  vinculo: ContraCteVinculo | null;
}

/**
 * Decides the payout's side of a counter-CT-e's cancellation on its driver group's stream (a CT-e that is not a
 * counter-CT-e has no payout: null). Run by the request that cancels, so its answer and the reads after it show the
 * outcome, and again by the payout processor from the CT-e's events, which repeats nothing already decided.
 */
export async function decidirRepasseDoCancelamento(
  deps: CommandDeps,
  ctx: CommandContext,
  cte: CteCancelado,
  fase: FaseCancelamento,
  eventKey: string,
  options: ExecuteOptions<RepasseEvent, RepasseState> = {},
): Promise<RepasseNoCancelamento | null> {
  if (!cte.vinculo) return null;
  const command = comandoDoCancelamento(fase, { cte_id: cte.cte_id, company_id: cte.company_id, vinculo: cte.vinculo }, eventKey);
  const { state } = await execute(deps, repasseStream(cte.company_id, command.grupo), repasseDecider, command, ctx, options);
  const doc = state.documentos[cte.cte_id];
  const cancelamento = cancelamentoDe(state, cte.cte_id);
  return {
    cancelado: cancelamento.registrado,
    em_cancelamento: cancelamento.pendente !== null,
    parcelas_canceladas: (doc?.parcelas ?? []).filter((p) => p.situacao === 'cancelada').map((p) => p.posicao),
    parcelas_pagas: pagamentosMantidos(doc),
    ordens_retiradas: cancelamento.retiradas,
  };
}

/**
 * The payout processor's side: a registered or refused cancellation of a counter-CT-e reaches its group even when the
 * request that cancelled stopped before deciding it (a crash between the CT-e's record and the group's).
 */
export const cancelamentoNoRepasse =
  (deps: PayoutDeps, fase: Exclude<FaseCancelamento, 'solicitado'>) =>
  async (event: RecordedEvent): Promise<void> => {
    const d = event.data as EventData<'cte.evento_registrado'>;
    if (d.tp_evento !== TP_CANCELAMENTO) return;
    const vinculo = await vinculoDoCte(deps.store, d.cte_id, deps.vinculoConhecido);
    await decidirRepasseDoCancelamento(
      deps,
      contextoDo(deps, event, d.company_id),
      { cte_id: d.cte_id, company_id: d.company_id, vinculo },
      fase,
      d.event_key,
      { eventId: (i, e) => derivedEventId(event.id, `${e.type}:${i}`), cache: deps.grupos },
    );
  };
