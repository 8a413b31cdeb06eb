import { type DomainEventOf, type Environment, type EventData, type LinhaPlanejada, type ModoSubcontratacao, type ParcelaRepasse } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';

/**
 * A counter-CT-e batch: its plan, fixed at creation, and what processing each row gave. The rows' later life
 * (authorized, refused, payout) is read from the counter-CT-e's own events by the report's projector.
 */
export type LoteEvent = DomainEventOf<'lote.criado'> | DomainEventOf<'lote.linha_processada'>;

export interface CriarLote {
  type: 'CriarLote';
  batch_id: string;
  company_id: string;
  solicitante_company_id: string | null;
  ambiente: Environment;
  modo: ModoSubcontratacao;
  parcelas: ParcelaRepasse[] | null;
  linhas: LinhaPlanejada[];
}

export type RegistrarLinha = { type: 'RegistrarLinha' } & EventData<'lote.linha_processada'>;

export type LoteCommand = CriarLote | RegistrarLinha;

export type LinhaRegistrada = Pick<EventData<'lote.linha_processada'>, 'status' | 'counter_cte_id'>;

export interface LoteState {
  existe: boolean;
  company_id: string | null;
  solicitante_company_id: string | null;
  modo: ModoSubcontratacao;
  parcelas: ParcelaRepasse[] | null;
  linhas: LinhaPlanejada[];
  /** By row index: what processing gave. */
  processadas: Record<number, LinhaRegistrada>;
}

export const loteStream = (batchId: string) => `lote-${batchId}`;

export const loteDecider: Decider<LoteCommand, LoteState, LoteEvent> = {
  initialState: { existe: false, company_id: null, solicitante_company_id: null, modo: '1a1', parcelas: null, linhas: [], processadas: {} },
  decide(c, state) {
    switch (c.type) {
      case 'CriarLote': {
        // The id comes from an idempotency key or is fresh: a second creation is the retry of the first.
        if (state.existe) return [];
        if (c.linhas.length === 0) throw new Rejection('lote_invalido', 'a batch has at least one row');
        return [{
          type: 'lote.criado',
          data: {
            batch_id: c.batch_id, company_id: c.company_id, solicitante_company_id: c.solicitante_company_id, ambiente: c.ambiente,
            modo: c.modo, parcelas: c.parcelas, linhas: c.linhas,
          },
        }];
      }
      case 'RegistrarLinha': {
        if (!state.existe || state.company_id !== c.company_id) throw new Rejection('lote_nao_encontrado', `batch ${c.batch_id} not found`);
        const plano = state.linhas[c.linha];
        if (!plano || plano.chave !== c.chave || plano.perna !== c.perna) {
          throw new Rejection('regra_de_negocio', `row ${c.linha} of batch ${c.batch_id} is not key ${c.chave} leg ${c.perna}`);
        }
        // Redelivery of the processing: the row already has its outcome, and the first one stands.
        if (state.processadas[c.linha]) return [];
        if (c.status !== 'failed' && !c.counter_cte_id) throw new Rejection('regra_de_negocio', `a ${c.status} row names its counter-CT-e`);
        const { type: _type, ...data } = c;
        return [{ type: 'lote.linha_processada', data }];
      }
    }
  },
  evolve(state, e) {
    switch (e.type) {
      case 'lote.criado':
        return {
          existe: true, company_id: e.data.company_id, solicitante_company_id: e.data.solicitante_company_id, modo: e.data.modo,
          parcelas: e.data.parcelas, linhas: e.data.linhas, processadas: {},
        };
      case 'lote.linha_processada':
        return { ...state, processadas: { ...state.processadas, [e.data.linha]: { status: e.data.status, counter_cte_id: e.data.counter_cte_id } } };
      default:
        return state;
    }
  },
  // A batch of a thousand rows is read again at each block: one map for the whole history, not one per row.
  foldAll(events) {
    let state = loteDecider.initialState;
    const processadas: LoteState['processadas'] = {};
    for (const e of events) {
      if (e.type === 'lote.linha_processada') processadas[e.data.linha] = { status: e.data.status, counter_cte_id: e.data.counter_cte_id };
      else state = loteDecider.evolve(state, e);
    }
    return state.existe ? { ...state, processadas } : state;
  },
};
