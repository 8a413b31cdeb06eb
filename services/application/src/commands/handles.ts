import { type DomainEvent } from '@frete/contracts';
import { type Decider } from '@frete/domain';
import { type CommandContext, type CommandDeps, type Executed, type ExecuteOptions, execute } from './execute';

/**
 * The one way an aggregate's handler runs its commands: the stream comes from the command (each aggregate names
 * its streams in the domain), then load, decide, append with `execute`.
 */
export const handles =
  <C, S, E extends DomainEvent>(deps: CommandDeps, decider: Decider<C, S, E>, streamOf: (command: C) => string) =>
  (ctx: CommandContext, command: C, options?: ExecuteOptions<E, S>): Promise<Executed<S, E>> =>
    execute(deps, streamOf(command), decider, command, ctx, options);
