import { type CommandDeps } from './commands/execute';
import { configuracaoHandler } from './configuracao/handler';
import { cteHandler, type CteHandlerDeps } from './cte/handler';
import { mdfeHandler } from './mdfe/handler';
import { type EmissorMdfe } from './mdfe/emissor';

/** What the handlers of issued documents drive besides the event store: the emitters and the event registration. */
export type EmissaoHandlerDeps = Pick<CteHandlerDeps, 'pool' | 'environment'> & {
  emissorCte: CteHandlerDeps['emissor'];
  eventosCte: CteHandlerDeps['eventos'];
  emissorMdfe: EmissorMdfe;
};

/**
 * One command handler per aggregate, as routes and processors call them. A route validates, calls one of these and
 * maps the answer; it never reaches the event store itself.
 */
export const createHandlers = (deps: Required<CommandDeps> & EmissaoHandlerDeps) => ({
  configuracao: configuracaoHandler(deps),
  cte: cteHandler({ ...deps, emissor: deps.emissorCte, eventos: deps.eventosCte }),
  mdfe: mdfeHandler({ ...deps, emissor: deps.emissorMdfe }),
});
export type Handlers = ReturnType<typeof createHandlers>;
