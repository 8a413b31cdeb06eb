import { type Environment } from '@frete/contracts';
import { chooseRunningService, defaultDataDir, type Platform, type RunningService, runningServices } from '@frete/platform';

/** Several services of this checkout run and none on the default folder: the operator names one. */
export class AmbiguousDatabaseError extends Error {}

export interface DatabaseChoice {
  /** The environment the configuration is read from: DATA_DIR and APP_ENVIRONMENT of the service found, if any. */
  env: NodeJS.ProcessEnv;
  /** The running service whose database this is, when it was found through its announcement. */
  service: RunningService | null;
}

const environmentOf = (text: string | undefined): Environment | null => (text === 'homologacao' || text === 'producao' ? text : null);

/**
 * DATABASE_URL or DATA_DIR, when set, name the database. Otherwise the running service's (see `announceRunningService`),
 * so that a command run from another shell does not open an empty embedded database of its own; with no service
 * running, the default DATA_DIR's embedded PostgreSQL as before.
 */
export function whichDatabase(env: NodeJS.ProcessEnv = process.env): DatabaseChoice {
  if (env.DATABASE_URL || env.DATA_DIR) return { env, service: null };
  const environment = environmentOf(env.APP_ENVIRONMENT);
  const choice = chooseRunningService(runningServices(env), { dataDir: defaultDataDir(environment ?? 'homologacao'), environment });
  if (choice.kind === 'none') return { env, service: null };
  if (choice.kind === 'ambiguous') {
    const list = choice.services.map((s) => `pid ${s.pid}: DATA_DIR=${s.data_dir}`).join('; ');
    throw new AmbiguousDatabaseError(`several services of this checkout are running (${list}): set DATA_DIR to the one to work on`);
  }
  const { service } = choice;
  return { env: { ...env, DATA_DIR: service.data_dir, APP_ENVIRONMENT: service.environment }, service };
}

/** The stderr line that says which database the command opened (none when DATABASE_URL names it). */
export function databaseLine(choice: DatabaseChoice, platform: Platform): string | null {
  const { config, embedded } = platform;
  if (config.databaseUrl || !embedded) return null;
  const where = `embedded PostgreSQL in ${config.dataDir}`;
  if (embedded.started) {
    const why = choice.service ? `its service (pid ${choice.service.pid}) was not reachable` : 'no service of this checkout runs on it';
    return `ops: database: ${where}, started for this command and stopped after it (${why})`;
  }
  if (choice.service) {
    const api = choice.service.api ? `, API ${choice.service.api}` : '';
    return `ops: database: ${where}, of the service running as pid ${choice.service.pid}${api}`;
  }
  return `ops: database: ${where}, of the service running on it`;
}
