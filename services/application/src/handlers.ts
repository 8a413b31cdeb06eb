import { type CommandDeps } from './commands/execute';
import { configuracaoHandler } from './configuracao/handler';
import { registroMotoristas, registroRegrasTributacao, registroVeiculos } from '@frete/domain';
import { registroHandler } from './cadastros/handler';

/**
 * One command handler per aggregate, as routes and processors call them. A route validates, calls one of these and
 * maps the answer; it never reaches the event store itself.
 */
export const createHandlers = (deps: Required<CommandDeps>) => ({
  configuracao: configuracaoHandler(deps),
  motorista: registroHandler(deps, registroMotoristas),
  veiculo: registroHandler(deps, registroVeiculos),
  regraTributacao: registroHandler(deps, registroRegrasTributacao),
});
export type Handlers = ReturnType<typeof createHandlers>;
