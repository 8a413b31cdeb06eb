import { type Decider, fold } from '@frete/domain';

export interface QuandoFluxo<C> {
  /** The workflow returned exactly these commands, in order (none: it asks for nothing). */
  then(...comandos: C[]): void;
  /** The commands it returned, for a specification that goes on (a command decided by its aggregate). */
  comandos(): C[];
}

/**
 * given(the aggregate's events) → when(an input: its own event, or another aggregate's outcome) → then(the commands the
 * workflow returns). Workflows are pure (`reagir(state, input)`): no store, no clock; the state is the decider's fold.
 */
export function especificacaoDeFluxo<D, S, E, I, C>(decider: Decider<D, S, E>, reagir: (state: S, entrada: I) => readonly C[]) {
  return {
    given: (...historia: E[]) => ({
      when: (entrada: I): QuandoFluxo<C> => {
        const comandos = () => [...reagir(fold(decider, historia), entrada)];
        return {
          then: (...esperados) => expect(comandos()).toEqual(esperados),
          comandos,
        };
      },
    }),
  };
}
