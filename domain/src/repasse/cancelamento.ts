import { type ContraCteVinculo, type PagamentoMantido } from '@frete/contracts';
import { type RepasseCommand } from './decider';
import { grupoDoVinculo } from './grupo';
import { type DocumentoEstado, type ParcelaEstado, type RepasseEvent, type RepasseState, cancelamentoDe } from './estado';

interface Alvo {
  company_id: string;
  grupo: string;
  cte_id: string;
}

const alvo = (c: Alvo): Alvo => ({ company_id: c.company_id, grupo: c.grupo, cte_id: c.cte_id });

/** An order recorded but not handed to the bank rail: its money has not left, so a cancellation can still take it back. */
const retiravel = (p: ParcelaEstado) => p.situacao === 'pagamento_solicitado' && !p.enviada;

const retiradas = (c: Alvo, doc: DocumentoEstado | undefined, motivo: 'cancelamento_solicitado' | 'documento_cancelado', agora: string) =>
  (doc?.parcelas ?? []).filter(retiravel).map(
    (p): RepasseEvent => ({
      type: 'repasse.pagamento_retirado',
      data: { ...alvo(c), posicao: p.posicao, ordem_id: p.ordem_id!, valor_centavos: p.valor_centavos, motivo, retirado_em: agora },
    }),
  );

/** The installments whose money has left (settled, or handed to the rail): they stay paid whatever becomes of the document. */
export const pagamentosMantidos = (doc: DocumentoEstado | undefined): PagamentoMantido[] =>
  (doc?.parcelas ?? [])
    .filter((p) => p.situacao === 'paga' || (p.situacao === 'pagamento_solicitado' && p.enviada))
    .map((p) => ({
      posicao: p.posicao,
      ordem_id: p.ordem_id!,
      valor_centavos: p.valor_centavos,
      situacao: p.situacao === 'paga' ? ('paga' as const) : ('pagamento_enviado' as const),
    }));

/**
 * The cancellation was sent to the authority: the document is held (no release, no order) until the verdict, and the
 * orders not yet handed to the rail are withdrawn now, before they can be. A request already decided (held, refused or
 * registered) adds nothing, so a late echo of it changes nothing.
 */
export function solicitarCancelamento(state: RepasseState, c: Alvo, eventKey: string, agora: string): RepasseEvent[] {
  const cancelamento = cancelamentoDe(state, c.cte_id);
  if (cancelamento.registrado || cancelamento.pendente === eventKey || cancelamento.recusados.includes(eventKey)) return [];
  return [
    { type: 'repasse.cancelamento_solicitado', data: { ...alvo(c), event_key: eventKey, solicitado_em: agora } },
    ...retiradas(c, state.documentos[c.cte_id], 'cancelamento_solicitado', agora),
  ];
}

/** The authority refused the cancellation it was deciding: the hold ends, and withdrawn orders stay withdrawn. */
export function recusarCancelamento(state: RepasseState, c: Alvo, eventKey: string, agora: string): RepasseEvent[] {
  if (cancelamentoDe(state, c.cte_id).pendente !== eventKey) return [];
  return [{ type: 'repasse.cancelamento_recusado', data: { ...alvo(c), event_key: eventKey, recusado_em: agora } }];
}

/**
 * The authority registered the cancellation: unpaid installments are cancelled, orders not yet handed to the rail are
 * withdrawn and cancelled, and those whose money left are listed as kept. A document the processor has not registered
 * yet is cancelled all the same, so that it enters the group cancelled.
 */
export function cancelarDocumento(state: RepasseState, c: Alvo, eventKey: string | undefined, agora: string): RepasseEvent[] {
  const doc = state.documentos[c.cte_id];
  if (cancelamentoDe(state, c.cte_id).registrado || doc?.cancelado) return [];
  const canceladas = (doc?.parcelas ?? [])
    .filter((p) => p.situacao === 'pendente' || p.situacao === 'liberada' || retiravel(p))
    .map((p) => p.posicao);
  return [
    ...retiradas(c, doc, 'documento_cancelado', agora),
    {
      type: 'repasse.documento_cancelado',
      data: {
        ...alvo(c),
        cancelado_em: agora,
        parcelas_canceladas: canceladas,
        parcelas_pagas: pagamentosMantidos(doc),
        ...(eventKey ? { event_key: eventKey } : {}),
      },
    },
  ];
}

/** A document registered after its cancellation was decided enters the group in the same condition. */
export function condicaoNoRegistro(state: RepasseState, c: Alvo, agora: string): RepasseEvent[] {
  const cancelamento = cancelamentoDe(state, c.cte_id);
  if (cancelamento.registrado)
    return [
      { type: 'repasse.documento_cancelado', data: { ...alvo(c), cancelado_em: agora, parcelas_canceladas: [], parcelas_pagas: [] } },
    ];
  if (cancelamento.pendente)
    return [{ type: 'repasse.cancelamento_solicitado', data: { ...alvo(c), event_key: cancelamento.pendente, solicitado_em: agora } }];
  return [];
}

/** Where a counter-CT-e's cancellation stands at the authority, as the CT-e's own stream records it. */
export type FaseCancelamento = 'solicitado' | 'registrado' | 'recusado';

/**
 * The workflow from a counter-CT-e's cancellation to its driver's payout: each step of the fiscal event gives the
 * command its group must decide. A single place, so that the request that cancels and the payout processor that
 * catches up after a crash decide the same thing.
 */
export function comandoDoCancelamento(
  fase: FaseCancelamento,
  cte: { cte_id: string; company_id: string; vinculo: Pick<ContraCteVinculo, 'lote_id' | 'motorista_cpf'> },
  eventKey: string,
): Extract<RepasseCommand, { type: 'SolicitarCancelamento' | 'RecusarCancelamento' | 'CancelarDocumento' }> {
  const c = { company_id: cte.company_id, grupo: grupoDoVinculo(cte.cte_id, cte.vinculo), cte_id: cte.cte_id };
  switch (fase) {
    case 'solicitado':
      return { type: 'SolicitarCancelamento', ...c, event_key: eventKey };
    case 'recusado':
      return { type: 'RecusarCancelamento', ...c, event_key: eventKey };
    case 'registrado':
      return { type: 'CancelarDocumento', ...c, event_key: eventKey };
  }
}
