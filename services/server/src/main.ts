import 'reflect-metadata';
import closeWithGrace from 'close-with-grace';
import { ConfigError, createLogger, EmbeddedPostgresError, loadConfig, stopEmbeddedPostgresInOrder } from '@frete/platform';
import { type RunningServices, startServices } from './services';
import { ensureDemo } from './demo';

/** How long a stop may take before the process exits anyway (its exit still tells embedded PostgreSQL to stop). */
const SHUTDOWN_DELAY_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel });
  // Signals and uncaught errors stop the services in order, embedded PostgreSQL last, within SHUTDOWN_DELAY_MS.
  stopEmbeddedPostgresInOrder();
  let starting: Promise<RunningServices> | null = null;
  closeWithGrace({ delay: SHUTDOWN_DELAY_MS }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'stopping after an uncaught error');
    const cause = signal ?? (err ? 'error' : 'exit');
    logger.info({ signal: cause }, `${cause}: stopping`);
    // A signal during the start stops what the start has started.
    const running = await starting?.catch(() => null);
    await running?.stop((step) => logger.info({ step }, `stopped ${step}`));
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
  const logger = createLogger({ level: 'info', destination: process.stderr });
  if (told) logger.fatal(err.message);
  else logger.fatal({ err }, 'failed to start');
  process.exit(1);
});
