import { type FastifyInstance } from 'fastify';
import { Kafka, logLevel } from 'kafkajs';
import { buildApi, type ApiDeps } from '@frete/api';
import {
  type AppConfig,
  DEFAULT_PROCESSOR_CONCURRENCY,
  DirectTransport,
  KafkaRelay,
  KafkaTransport,
  type Platform,
  type PlatformOptions,
  type Processor,
  type ProcessorTransport,
  startPlatform,
} from '@frete/platform';
import { type Application, createApplication } from '@frete/application';
import { compose, TOKENS } from './container';

export interface RunningServices {
  platform: Platform;
  application: Application;
  api: FastifyInstance | null;
  /** Address the API listens on, e.g. http://127.0.0.1:3000 */
  url: string | null;
  /**
   * Stops in the reverse order of the start: the API (no new commands), the processors (they append events), the
   * relay and the projector (they follow the log to its end), then the platform, embedded PostgreSQL last.
   * `report` hears each step done.
   */
  stop(report?: (step: string) => void): Promise<void>;
}

/**
 * Starts the services the configuration names, in this process: the API, the projector, the Kafka relay (when
 * KAFKA_BROKERS is set) and the processors, which read Kafka when it is there and the event store otherwise.
 */
export async function startServices(config: AppConfig, options: PlatformOptions & { logger?: boolean } = {}): Promise<RunningServices> {
  const platform = await startPlatform(config, options);
  const application = createApplication(platform);
  let ready = false;
  const di = compose(platform, application, () => ready);
  const stops: { name: string; stop: () => Promise<void> }[] = [];
  const has = (s: AppConfig['services'][number]) => config.services.includes(s);

  const report = (what: string) => (err: unknown) =>
    console.error(`${what} failed and restarts from its checkpoint: ${err instanceof Error ? err.message : String(err)}`);
  if (has('projector')) {
    await platform.projections.start(report('projector'));
    stops.push({ name: 'projector', stop: () => platform.projections.stop() });
  }
  const kafka = config.kafkaBrokers
    ? new Kafka({ clientId: `frete-${config.environment}`, brokers: config.kafkaBrokers, logLevel: logLevel.WARN })
    : null;
  if (kafka && has('relay')) {
    const relay = new KafkaRelay(platform.store, platform.pool, kafka, { topic: config.kafkaTopic });
    await relay.start();
    stops.push({ name: 'relay', stop: () => relay.stop() });
  }
  const processors = di.resolve<Processor[]>(TOKENS.Processors).filter((p) => has(`${p.name}-processor` as AppConfig['services'][number]));
  for (const processor of processors) {
    const concurrency =
      config.processorConcurrency[processor.name as keyof AppConfig['processorConcurrency']] ?? DEFAULT_PROCESSOR_CONCURRENCY;
    const transport: ProcessorTransport = kafka
      ? new KafkaTransport(kafka, { topic: config.kafkaTopic, concurrency })
      : new DirectTransport(platform.store, platform.pool, { concurrency, onError: report(`${processor.name} processor`) });
    await transport.start(processor);
    stops.push({ name: `${processor.name}-processor`, stop: () => transport.stop() });
  }
  if (has('webhooks-processor')) {
    // The sending side of the webhooks processor: a loop of its own, so a slow receiver holds neither the log's reading
    // nor the API (see DespachanteWebhooks).
    const despachante = application.webhooks.despachante((err) =>
      console.error(
        `webhooks dispatcher: a round failed and the next one tries again: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
    despachante.start();
    stops.push({ name: 'webhooks-dispatcher', stop: () => despachante.stop() });
  }

  let api: FastifyInstance | null = null;
  let url: string | null = null;
  if (has('api')) {
    api = await buildApi(di.resolve<ApiDeps>(TOKENS.ApiDeps), { logger: options.logger ? { level: config.logLevel } : false });
    url = await api.listen({ host: config.host, port: config.port });
    const a = api;
    stops.push({
      name: 'api',
      stop: async () => {
        // close() answers the requests in flight and then waits for their keep-alive connections, which turn idle
        // only afterwards and would hold it for the keep-alive timeout (72 s): they are closed as they turn idle.
        const reaper = setInterval(() => a.server.closeIdleConnections(), 50);
        try {
          await a.close();
        } finally {
          clearInterval(reaper);
        }
      },
    });
  }
  ready = true;
  let stopped = false;
  return {
    platform,
    application,
    api,
    url,
    stop: async (report = () => undefined) => {
      // A second stop (a test that restarted the services, a signal during shutdown) has nothing left to stop.
      if (stopped) return;
      stopped = true;
      ready = false;
      for (const { name, stop } of [...stops].reverse()) {
        // One part failing to stop must not keep the others (and PostgreSQL) running.
        await stop().then(
          () => report(name),
          (err: unknown) => report(`${name} (failed: ${err instanceof Error ? err.message : String(err)})`),
        );
      }
      await application.close().then(
        () => report('schema validator'),
        (err: unknown) => report(`schema validator (failed: ${err instanceof Error ? err.message : String(err)})`),
      );
      await platform.close(report);
    },
  };
}
