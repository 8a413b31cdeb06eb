import { type CommandDeps } from './commands/execute';
import { configuracaoHandler } from './configuracao/handler';
import { type CteHandlerDeps, cteHandler } from './cte/handler';
import { type CteSubcontratacaoHandlerDeps, cteSubcontratacaoHandler } from './cte-subcontratacao/handler';
import { type ContraCteHandlerDeps, contraCteHandler } from './contra-cte/handler';
import { type LoteHandlerDeps, loteHandler } from './lote/handler';
import { type NfeHandlerDeps, nfeHandler } from './nfe/handler';

/**
 * One command handler per aggregate, as routes and processors call them. A route validates, calls one of these and
 * maps the answer; it never reaches the event store itself.
 */
export const createHandlers = (deps: Required<CommandDeps> & CteHandlerDeps & CteSubcontratacaoHandlerDeps & ContraCteHandlerDeps & LoteHandlerDeps & NfeHandlerDeps) => ({
  configuracao: configuracaoHandler(deps),
  cte: cteHandler(deps),
  cteSubcontratacao: cteSubcontratacaoHandler(deps),
  contraCte: contraCteHandler(deps),
  lote: loteHandler(deps),
  nfe: nfeHandler(deps),
});
export type Handlers = ReturnType<typeof createHandlers>;
