import 'reflect-metadata';
import { EmbeddedPostgresError, loadConfig } from '@frete/platform';
import { startServices } from './services';
import { ensureDemo } from './demo';

async function main(): Promise<void> {
  const config = loadConfig();
  const running = await startServices(config, { logger: true });
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
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    await running.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  // A refusal that says what to do is shown as it is; anything else with its stack.
  console.error(err instanceof EmbeddedPostgresError ? err.message : err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
