import { type DomainEventOf } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { type EspecieDocumento, type NumeracaoDoDocumento } from '../documento-fiscal/especie';
import { numeroReservado, type Reserva } from './reservas';

/** A reservation as stored histories hold it: each kind's own event type and id field (see `NumeracaoDoDocumento`). */
export type NumeroReservado = DomainEventOf<'numeracao_cte.reservada'> | DomainEventOf<'numeracao_mdfe.reservada'>;

export interface ReservarNumero {
  type: 'ReservarNumero';
  /** The kind whose series is numbered: it names the event and the field the reservation is stored under. */
  documento: EspecieDocumento;
  company_id: string;
  serie: number;
  documento_id: string;
}

export interface NumeracaoState {
  ultimo: number;
  reservas: Reserva | null;
}

/** nCT and nMDF have 9 digits. */
export const MAIOR_NUMERO_DOCUMENTO = 999_999_999;

/** One stream per company, kind and series: its expected revision makes concurrent reservations take turns. */
export const numeracaoStream = (documento: EspecieDocumento, companyId: string, serie: number) =>
  `${documento.numeracao.prefixo}-${companyId}-${serie}`;

/** The document a reservation names, whichever kind stored it. */
export const documentoReservado = (e: NumeroReservado): string => ('cte_id' in e.data ? e.data.cte_id : e.data.mdfe_id);

function reservada(n: NumeracaoDoDocumento, c: ReservarNumero, numero: number): NumeroReservado {
  const base = { company_id: c.company_id, serie: c.serie, numero };
  return n.campo === 'cte_id'
    ? { type: n.evento, data: { ...base, cte_id: c.documento_id } }
    : { type: n.evento, data: { ...base, mdfe_id: c.documento_id } };
}

/**
 * Numbers of a series (`serie_cte`, `serie_mdfe`), in order, with no gap and no duplicate: each document gets the next
 * number once and keeps it (a retry, a rejection and a re-issue reuse it), so a number is never skipped nor given
 * twice. Every kind numbers alike; the kind in the command only names what is stored.
 */
export const numeracaoDecider: Decider<ReservarNumero, NumeracaoState, NumeroReservado> = {
  initialState: { ultimo: 0, reservas: null },
  decide(c, state) {
    if (numeroReservado(state.reservas, c.documento_id) !== undefined) return [];
    if (state.ultimo >= MAIOR_NUMERO_DOCUMENTO) {
      throw new Rejection('serie_esgotada', `${c.documento.nome} series ${c.serie} has no number left`);
    }
    return [reservada(c.documento.numeracao, c, state.ultimo + 1)];
  },
  evolve(state, e) {
    return { ultimo: e.data.numero, reservas: { id: documentoReservado(e), numero: e.data.numero, anterior: state.reservas } };
  },
};
