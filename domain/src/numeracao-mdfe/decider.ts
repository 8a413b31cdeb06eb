import { type DomainEventOf } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { numeroReservado, type Reserva } from '../numeracao/reservas';

export type NumeracaoMdfeEvent = DomainEventOf<'numeracao_mdfe.reservada'>;

export interface ReservarNumeroMdfe {
  type: 'ReservarNumeroMdfe';
  company_id: string;
  serie: number;
  mdfe_id: string;
}

export interface NumeracaoMdfeState {
  ultimo: number;
  reservas: Reserva | null;
}

/** nMDF has 9 digits. */
export const MAIOR_NUMERO_MDFE = 999_999_999;

/** One stream per company and MDF-e series (`serie_mdfe`). */
export const numeracaoMdfeStream = (companyId: string, serie: number) => `numeracao_mdfe-${companyId}-${serie}`;

/** Numbers of an MDF-e series in order, with no gap and no duplicate; an MDF-e keeps its number through retries. */
export const numeracaoMdfeDecider: Decider<ReservarNumeroMdfe, NumeracaoMdfeState, NumeracaoMdfeEvent> = {
  initialState: { ultimo: 0, reservas: null },
  decide(c, state) {
    if (numeroReservado(state.reservas, c.mdfe_id) !== undefined) return [];
    if (state.ultimo >= MAIOR_NUMERO_MDFE) throw new Rejection('serie_esgotada', `MDF-e series ${c.serie} has no number left`);
    return [{ type: 'numeracao_mdfe.reservada', data: { company_id: c.company_id, serie: c.serie, numero: state.ultimo + 1, mdfe_id: c.mdfe_id } }];
  },
  evolve(state, e) {
    return { ultimo: e.data.numero, reservas: { id: e.data.mdfe_id, numero: e.data.numero, anterior: state.reservas } };
  },
};
