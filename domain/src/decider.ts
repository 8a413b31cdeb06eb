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
   * For a state that is a collection, where evolving event by event would copy it each time (quadratic in a history
   * or in a group's decisions): `copiar` gives a copy the caller owns, `aplicar` writes one event into such a copy in
   * place, giving what `evolve` gives. Many events are then folded on one copy (`evoluirTodos`).
   */
  emLugar?: { copiar(state: State): State; aplicar(copia: State, event: Event): void };
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

type Evolucao<S, E> = Pick<Decider<unknown, S, E>, 'initialState' | 'evolve' | 'emLugar'>;

/** The state after `events`, equal to folding `evolve` over them; a collection is copied once (see `emLugar`). */
export function evoluirTodos<S, E>(decider: Evolucao<S, E>, state: S, events: readonly E[]): S {
  const emLugar = decider.emLugar;
  if (!emLugar || events.length < 2) return events.reduce(decider.evolve, state);
  const copia = emLugar.copiar(state);
  for (const e of events) emLugar.aplicar(copia, e);
  return copia;
}

export const fold = <S, E>(decider: Evolucao<S, E>, events: readonly E[]): S => evoluirTodos(decider, decider.initialState, events);

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
    // A thousand commands on a collection fold their events into one copy of it, owned here, not a copy each.
    const emLugar = commands.length > 1 ? decider.emLugar : undefined;
    let atual = emLugar ? emLugar.copiar(state) : state;
    commands.forEach((c, n) => {
      const novos = decider.decide(c, atual, ctx);
      if (emLugar) for (const e of novos) emLugar.aplicar(atual, e);
      else atual = novos.reduce(decider.evolve, atual);
      events.push(...novos);
      deCadaEvento.push(...novos.map(() => n));
    });
    origens?.(deCadaEvento);
    return events;
  },
  evolve: decider.evolve,
  ...(decider.emLugar ? { emLugar: decider.emLugar } : {}),
});
