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
export const createHandlers = (deps: HandlerDeps) => ({
  configuracao: configuracaoHandler(deps),
  autorizacao: autorizacaoHandler(deps),
  certificado: certificadoHandler(deps),
  convite: conviteHandler(deps),
  repasse: repasseHandler(deps),
  ciot: ciotHandler(deps),
});
export type Handlers = ReturnType<typeof createHandlers>;
