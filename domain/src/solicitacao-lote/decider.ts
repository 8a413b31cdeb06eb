import { type DomainEventOf, type EventData } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';

/**
 * The contractor's record of a batch it requested on a subcontractor's account (issue 26): the batch is the
 * subcontractor's, in its chain; the request and its outcome are the contractor's, in its own, named by public
 * identifiers only. One stream per batch, `solicitacao-lote-<batch_id>`.
 */
export const solicitacaoLoteStream = (batchId: string) => `solicitacao-lote-${batchId}`;

export type SolicitacaoLoteEvent = DomainEventOf<'solicitacao_lote.aceita'> | DomainEventOf<'solicitacao_lote.concluida'>;

/** The request created the batch on the subcontractor's account. */
export type RegistrarSolicitacaoLote = { type: 'RegistrarSolicitacaoLote' } & EventData<'solicitacao_lote.aceita'>;
/** The batch requested ended. */
export type ConcluirSolicitacaoLote = { type: 'ConcluirSolicitacaoLote' } & EventData<'solicitacao_lote.concluida'>;

export type SolicitacaoLoteCommand = RegistrarSolicitacaoLote | ConcluirSolicitacaoLote;

export interface SolicitacaoLoteState {
  existe: boolean;
  company_id: string | null;
  concluida: boolean;
}

export const solicitacaoLoteDecider: Decider<SolicitacaoLoteCommand, SolicitacaoLoteState, SolicitacaoLoteEvent> = {
  initialState: { existe: false, company_id: null, concluida: false },
  decide(c, state) {
    switch (c.type) {
      case 'RegistrarSolicitacaoLote': {
        // The request is recorded by its answer and again by whoever finds it missing: the first record stands.
        if (state.existe) return [];
        const { type: _type, ...data } = c;
        return [{ type: 'solicitacao_lote.aceita', data }];
      }
      case 'ConcluirSolicitacaoLote': {
        if (!state.existe || state.company_id !== c.company_id) {
          throw new Rejection('lote_nao_encontrado', `no request of batch ${c.batch_id} by this company`);
        }
        if (state.concluida) return [];
        const { type: _type, ...data } = c;
        return [{ type: 'solicitacao_lote.concluida', data }];
      }
    }
  },
  evolve(state, e) {
    switch (e.type) {
      case 'solicitacao_lote.aceita':
        return { existe: true, company_id: e.data.company_id, concluida: false };
      case 'solicitacao_lote.concluida':
        return { ...state, concluida: true };
    }
  },
};
