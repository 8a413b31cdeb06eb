import { type DomainEventOf } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { numeroReservado, type Reserva } from '../numeracao/reservas';

export type NumeracaoCteEvent = DomainEventOf<'numeracao_cte.reservada'>;

export interface ReservarNumeroCte {
  type: 'ReservarNumeroCte';
  company_id: string;
  serie: number;
  cte_id: string;
}

export interface NumeracaoCteState {
  ultimo: number;
  reservas: Reserva | null;
}

/** nCT has 9 digits. */
export const MAIOR_NUMERO_CTE = 999_999_999;

/** One stream per company and series: its expected revision makes concurrent reservations take turns. */
export const numeracaoCteStream = (companyId: string, serie: number) => `numeracao_cte-${companyId}-${serie}`;

/**
 * Numbers of a series, in order, with no gap and no duplicate: each CT-e gets the next number once and keeps it
 * (a retry, a rejection and a re-issue reuse it), so a number is never skipped nor given twice.
 */
export const numeracaoCteDecider: Decider<ReservarNumeroCte, NumeracaoCteState, NumeracaoCteEvent> = {
  initialState: { ultimo: 0, reservas: null },
  decide(c, state) {
    if (numeroReservado(state.reservas, c.cte_id) !== undefined) return [];
    if (state.ultimo >= MAIOR_NUMERO_CTE) throw new Rejection('serie_esgotada', `series ${c.serie} has no number left`);
    return [{ type: 'numeracao_cte.reservada', data: { company_id: c.company_id, serie: c.serie, numero: state.ultimo + 1, cte_id: c.cte_id } }];
  },
  evolve(state, e) {
    return { ultimo: e.data.numero, reservas: { id: e.data.cte_id, numero: e.data.numero, anterior: state.reservas } };
  },
};
