import { type Decider, Rejection } from '../decider';
import { numeroReservado, type Reserva } from '../numeracao/reservas';

export interface NumeracaoState {
  ultimo: number;
  reservas: Reserva | null;
}

/** nCT and nMDF have 9 digits. */
export const MAIOR_NUMERO_DOCUMENTO = 999_999_999;

/** How one kind of fiscal document names its reservation: the document's id in the command and in the event. */
export interface NumeracaoDoDocumento<C, E> {
  documentoDoComando: (c: C) => string;
  documentoDoEvento: (e: E) => string;
  reservada: (c: C, numero: number) => E;
  /** The refusal's text once the series has no number left. */
  esgotada: (serie: number) => string;
}

/**
 * Numbers of a series, in order, with no gap and no duplicate: each document gets the next number once and keeps it
 * (a retry, a rejection and a re-issue reuse it), so a number is never skipped nor given twice. CT-e and MDF-e
 * number their series alike; only the names of their ids and events differ.
 */
export const numeracaoDecider = <C extends { serie: number }, E extends { data: { numero: number } }>(
  doc: NumeracaoDoDocumento<C, E>,
): Decider<C, NumeracaoState, E> => ({
  initialState: { ultimo: 0, reservas: null },
  decide(c, state) {
    if (numeroReservado(state.reservas, doc.documentoDoComando(c)) !== undefined) return [];
    if (state.ultimo >= MAIOR_NUMERO_DOCUMENTO) throw new Rejection('serie_esgotada', doc.esgotada(c.serie));
    return [doc.reservada(c, state.ultimo + 1)];
  },
  evolve(state, e) {
    return { ultimo: e.data.numero, reservas: { id: doc.documentoDoEvento(e), numero: e.data.numero, anterior: state.reservas } };
  },
});
