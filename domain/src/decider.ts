import { type ErrorCode, type FieldError } from '@frete/contracts';

/** What a decider needs from the outside world, passed in so that deciders stay pure. */
export interface DecisionContext {
  now: Date;
}

/** `decide(command, state) → events`, `evolve(state, event) → state`: one per aggregate, plain data only. */
export interface Decider<Command, State, Event> {
  initialState: State;
  decide(command: Command, state: State, ctx: DecisionContext): Event[];
  evolve(state: State, event: Event): State;
  /**
   * The state after a whole history, equal to folding `evolve` from `initialState`. An aggregate whose state is a
   * collection gives it when evolving event by event would copy the collection each time (quadratic in the stream).
   */
  foldAll?(events: Event[]): State;
}

/** A command the rules refuse. The edge turns it into the error envelope with the code's status. */
export class Rejection extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: { fields?: FieldError[] } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'Rejection';
  }
}

export const fold = <S, E>(decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve' | 'foldAll'>, events: E[]): S =>
  decider.foldAll ? decider.foldAll(events) : events.reduce(decider.evolve, decider.initialState);

/**
 * The same aggregate taking several commands at once: each decided on the state the ones before it left, their
 * events appended together (one write where there were as many as commands). A refusal refuses them all.
 * `origens`, when given, hears each decision's map from event to command: `origens[i]` is the index of the command
 * that decided event `i` (a group write gives each event its own command's id and cause).
 */
export const emSequencia = <C, S, E>(
  decider: Decider<C, S, E>,
  origens?: (deCadaEvento: readonly number[]) => void,
): Decider<readonly C[], S, E> => ({
  initialState: decider.initialState,
  decide(commands, state, ctx) {
    const events: E[] = [];
    const deCadaEvento: number[] = [];
    let atual = state;
    commands.forEach((c, n) => {
      const novos = decider.decide(c, atual, ctx);
      atual = novos.reduce(decider.evolve, atual);
      events.push(...novos);
      deCadaEvento.push(...novos.map(() => n));
    });
    origens?.(deCadaEvento);
    return events;
  },
  evolve: decider.evolve,
  ...(decider.foldAll ? { foldAll: decider.foldAll } : {}),
});
