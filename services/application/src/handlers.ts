import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { type CertificateVault } from '@frete/platform';
import { type CommandDeps } from './commands/execute';
import { configuracaoHandler } from './configuracao/handler';
import { autorizacaoHandler } from './autorizacao/handler';
import { certificadoHandler } from './certificado/handler';
import { conviteHandler } from './convite/handler';
import { repasseHandler } from './repasse/handler';
import { ciotHandler } from './ciot/handler';
import { type ServicoCiot } from './ciot/servico';
import { type CteHandlerDeps, cteHandler } from './cte/handler';
import { type CteSubcontratacaoHandlerDeps, cteSubcontratacaoHandler } from './cte-subcontratacao/handler';
import { type ContraCteHandlerDeps, contraCteHandler } from './contra-cte/handler';
import { type LoteHandlerDeps, loteHandler } from './lote/handler';
import { type NfeHandlerDeps, nfeHandler } from './nfe/handler';

/**
 * Besides the log, handlers read the read models that name a write's target or party, seal files in the vault, and
 * drive the flows that call an outside party.
 */
export interface HandlerDeps extends Required<CommandDeps> {
  pool: Pool;
  certificates: CertificateVault;
  environment: Environment;
  servicoCiot: ServicoCiot;
}

/**
 * One command handler per aggregate, as routes and processors call them. A route validates, calls one of these and
 * maps the answer; it never reaches the event store itself.
 */
export const createHandlers = (
  deps: HandlerDeps & CteHandlerDeps & CteSubcontratacaoHandlerDeps & ContraCteHandlerDeps & LoteHandlerDeps & NfeHandlerDeps,
) => ({
  configuracao: configuracaoHandler(deps),
  autorizacao: autorizacaoHandler(deps),
  certificado: certificadoHandler(deps),
  convite: conviteHandler(deps),
  repasse: repasseHandler(deps),
  ciot: ciotHandler(deps),
  cte: cteHandler(deps),
  cteSubcontratacao: cteSubcontratacaoHandler(deps),
  contraCte: contraCteHandler(deps),
  lote: loteHandler(deps),
  nfe: nfeHandler(deps),
});
export type Handlers = ReturnType<typeof createHandlers>;
