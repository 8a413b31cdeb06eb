import 'reflect-metadata';
import closeWithGrace from 'close-with-grace';
import { ConfigError, EmbeddedPostgresError, loadConfig, stopEmbeddedPostgresInOrder } from '@frete/platform';
import { type RunningServices, startServices } from './services';
import { ensureDemo } from './demo';

/** How long a stop may take before the process exits anyway (its exit still tells embedded PostgreSQL to stop). */
const SHUTDOWN_DELAY_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  // Signals and uncaught errors stop the services in order, embedded PostgreSQL last, within SHUTDOWN_DELAY_MS.
  stopEmbeddedPostgresInOrder();
  let starting: Promise<RunningServices> | null = null;
  closeWithGrace({ delay: SHUTDOWN_DELAY_MS }, async ({ signal, err }) => {
    if (err) console.error(err.stack ?? err.message);
    console.log(`${signal ?? (err ? 'error' : 'exit')}: stopping`);
    // A signal during the start stops what the start has started.
    const running = await starting?.catch(() => null);
    await running?.stop((step) => console.log(`  stopped ${step}`));
  });
  starting = startServices(config, { logger: true });
  const running = await starting;
  const lines = [
    `frete-fiscal: ${config.environment} · services ${config.services.filter((s) => s !== 'relay' || config.kafkaBrokers).join(', ')}`,
    `  event store: ${config.eventstoreUrl ? 'EventStoreDB' : 'PostgreSQL'} · database: ${config.databaseUrl ? 'DATABASE_URL' : `embedded (${config.dataDir})`}` +
      ` · bus: ${config.kafkaBrokers ? `Kafka ${config.kafkaBrokers.join(',')}` : 'event store subscriptions'}`,
  ];
  if (running.url) {
    lines.push(`  API: ${running.url}/v1   docs: ${running.url}/v1/docs   health: ${running.url}/health`);
  }
  if (!config.databaseUrl && config.services.includes('api')) {
    const demo = await ensureDemo(running.platform, running.application);
    lines.push(`  demo carrier CNPJ ${demo.cnpj}, API key (all scopes): ${demo.api_key}`);
    lines.push(`  try: curl -H "Authorization: Bearer ${demo.api_key}" ${running.url}/v1/fiscal/status`);
  }
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  // A refusal that says what to do is shown as it is; anything else with its stack.
  const told = err instanceof EmbeddedPostgresError || err instanceof ConfigError;
  console.error(told ? err.message : err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
