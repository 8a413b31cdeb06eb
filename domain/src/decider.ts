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
