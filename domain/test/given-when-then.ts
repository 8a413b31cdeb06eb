import { type Decider, type DecisionContext, fold, Rejection } from '../src';

/** given(events).when(command).then(events) — or .thenRejects(code) — for any decider. */
export function scenario<C, S, E>(decider: Decider<C, S, E>, ctx: DecisionContext = { now: new Date('2026-11-22T12:00:00Z') }) {
  return {
    given: (...history: E[]) => ({
      when: (command: C) => {
        const run = () => decider.decide(command, fold(decider, history), ctx);
        return {
          then: (...expected: E[]) => expect(run()).toEqual(expected),
          thenRejects: (code: string, fields?: string[]) => {
            let caught: unknown;
            try {
              run();
            } catch (err) {
              caught = err;
            }
            expect(caught).toBeInstanceOf(Rejection);
            expect((caught as Rejection).code).toBe(code);
            if (fields) expect((caught as Rejection).details?.fields?.map((f) => f.field)).toEqual(fields);
          },
        };
      },
    }),
  };
}
