import { type CommandDeps } from './commands/execute';
import { configuracaoHandler } from './configuracao/handler';

/**
 * One command handler per aggregate, as routes and processors call them. A route validates, calls one of these and
 * maps the answer; it never reaches the event store itself.
 */
export const createHandlers = (deps: Required<CommandDeps>) => ({
  configuracao: configuracaoHandler(deps),
});
export type Handlers = ReturnType<typeof createHandlers>;
