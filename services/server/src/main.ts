import closeWithGrace from 'close-with-grace';
import {
  announceRunningService,
  ConfigError,
  createLogger,
  EmbeddedPostgresError,
  humanLogDestination,
  loadConfig,
  stopEmbeddedPostgresInOrder,
} from '@frete/platform';
import { type RunningServices, startServices } from './services';
import { ensureDemo } from './demo';
import { banner } from './banner';

/** How long a stop may take before the process exits anyway (its exit still tells embedded PostgreSQL to stop). */
const SHUTDOWN_DELAY_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  // A person at a terminal reads lines and a banner; anything else (tests, deployments, log collectors) reads JSON.
  const terminal = process.stdout.isTTY === true;
  const logger = createLogger({ level: config.logLevel, ...(terminal ? { destination: humanLogDestination(process.stdout) } : {}) });
  // Signals and uncaught errors stop the services in order, embedded PostgreSQL last, within SHUTDOWN_DELAY_MS.
  stopEmbeddedPostgresInOrder();
  let starting: Promise<RunningServices> | null = null;
  let withdraw: (() => void) | null = null;
  closeWithGrace({ delay: SHUTDOWN_DELAY_MS }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'stopping after an uncaught error');
    const cause = signal ?? (err ? 'error' : 'exit');
    logger.info({ signal: cause }, `${cause}: stopping`);
    // A signal during the start stops what the start has started.
    const running = await starting?.catch(() => null);
    await running?.stop((step) => logger.info({ step }, `stopped ${step}`));
    withdraw?.();
  });
  starting = startServices(config, { logger });
  const running = await starting;
  // The demo first: the lines below say the process is ready (tests and scripts wait for them).
  const demo = !config.databaseUrl && config.services.includes('api') ? await ensureDemo(running.platform, running.application) : null;
  // The lines a person reads at the start, each a log line whose fields say the same for a machine.
  const services = config.services.filter((s) => s !== 'relay' || config.kafkaBrokers);
  const eventStore = config.eventstoreUrl ? 'EventStoreDB' : 'PostgreSQL';
  const database = config.databaseUrl ? 'DATABASE_URL' : `embedded (${config.dataDir})`;
  const bus = config.kafkaBrokers ? `Kafka ${config.kafkaBrokers.join(',')}` : 'event store subscriptions';
  // The operator tool, started in another shell without this DATA_DIR, finds this database through the announcement.
  if (!config.databaseUrl) {
    try {
      withdraw = announceRunningService({
        pid: process.pid,
        environment: config.environment,
        data_dir: config.dataDir,
        api: running.url,
        started_at: new Date().toISOString(),
      });
    } catch (err) {
      // A read-only checkout (an image) still serves; the operator then names the folder.
      logger.warn({ err }, `not announced to pnpm ops (it needs DATA_DIR=${config.dataDir})`);
    }
  }
  if (terminal) {
    process.stdout.write(
      banner({
        environment: config.environment,
        services,
        eventStore,
        database: config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`,
        bus,
        url: running.url,
        opsUrl: running.opsUrl,
        demo,
      }),
    );
    return;
  }
  logger.info(
    { environment: config.environment, services, event_store: eventStore, database, bus, tracing: config.tracing.endpoint !== null },
    `frete-fiscal: ${config.environment} · services ${services.join(', ')} · event store: ${eventStore} · database: ${database} · bus: ${bus}`,
  );
  if (running.url) {
    const api = `${running.url}/v1`;
    logger.info(
      { api, docs: `${api}/docs`, health: `${running.url}/health/ready` },
      `API: ${api}   docs: ${api}/docs   health: ${running.url}/health/ready`,
    );
  }
  if (running.url) {
    const painel = `${running.url}/console`;
    logger.info(
      { console: painel },
      `company panel: ${painel}   (its first admin: pnpm ops user create --company <cnpj> --email <e-mail> --role admin)`,
    );
  }
  if (running.opsUrl) {
    logger.info({ ops: running.opsUrl }, `ops: ${running.opsUrl}   (/health/live, /health/ready, /metrics)`);
  }
  if (demo) {
    logger.info(
      { demo_cnpj: demo.cnpj, demo_api_key: demo.api_key },
      `demo carrier CNPJ ${demo.cnpj}, API key (all scopes): ${demo.api_key} · try: curl -H "Authorization: Bearer ${demo.api_key}" ${running.url}/v1/fiscal/status`,
    );
  }
}

main().catch((err: unknown) => {
  // A refusal that says what to do is logged as it is; anything else with its stack. On stderr, where a failed start
  // is looked for; the configuration may be what failed, so the level is not read from it.
  const told = err instanceof EmbeddedPostgresError || err instanceof ConfigError;
  const logger = createLogger({
    level: 'info',
    destination: process.stderr.isTTY === true ? humanLogDestination(process.stderr) : process.stderr,
  });
  if (told) logger.fatal(err.message);
  else logger.fatal({ err }, 'failed to start');
  process.exit(1);
});
