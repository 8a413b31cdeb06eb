import { type FastifyInstance } from 'fastify';
import { Kafka, logLevel } from 'kafkajs';
import { buildApi } from '@frete/api';
import { consolePlugin } from '@frete/console';
import {
  type AppConfig,
  DEFAULT_PROCESSOR_CONCURRENCY,
  DirectTransport,
  KafkaRelay,
  KafkaTransport,
  type Logger,
  createLogger,
  kafkaLogCreator,
  observedProcessor,
  startTracing,
  type Platform,
  type PlatformOptions,
  type ProcessorTransport,
  type Readiness,
  readinessProbe,
  measuredProcessor,
  relayLag,
  startPlatform,
} from '@frete/platform';
import { linhasDeLotePorStatus } from '@frete/projections';
import { type Adaptadores, type Application, createApplication } from '@frete/application';
import { compose } from './composition';
import { type OpsServer, startOpsServer } from './ops-server';
import { closeDraining } from './close-draining';

export interface RunningServices {
  platform: Platform;
  application: Application;
  api: FastifyInstance | null;
  /** Address the API listens on, e.g. http://127.0.0.1:3000 */
  url: string | null;
  /** Address of the ops server (METRICS_PORT), e.g. http://127.0.0.1:9464 */
  opsUrl: string | null;
  /** The process's root logger (pino JSON lines). */
  logger: Logger;
  /**
   * Stops in the reverse order of the start: the API (no new commands), the processors (they append events), the
   * relay and the projector (they follow the log to its end), then the ops server, then the platform, embedded
   * PostgreSQL last. Readiness fails from the first step on.
   * `report` hears each step done.
   */
  stop(report?: (step: string) => void): Promise<void>;
}

/**
 * Starts the services the configuration names, in this process: the API, the projector, the Kafka relay (when
 * KAFKA_BROKERS is set) and the processors, which read Kafka when it is there and the event store otherwise.
 */
/** Readiness before the platform exists: migrations (or their lock) still under way. */
const STARTING: Readiness = {
  status: 'not_ready',
  checks: { started: { ok: false, detail: 'starting: migrations and services' } },
};
/** The Prometheus text format's content type, before the process's registry exists. */
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

export async function startServices(
  config: AppConfig,
  options: PlatformOptions & {
    logger?: boolean | Logger;
    /** The outside parties a deployment or a test gives its own of (a recording bank rail); the others are chosen by `adaptadoresDe`. */
    adaptadores?: Partial<Adaptadores>;
  } = {},
): Promise<RunningServices> {
  // `logger`: true logs the API's requests too (the process's entry point), a Logger takes every line (tests read
  // them); without it only the services' own reports are logged.
  const logger = typeof options.logger === 'object' ? options.logger : createLogger({ level: config.logLevel });
  const tracing = startTracing(config.tracing);
  // The ops server comes up first: an orchestrator sees the process live (and not ready) while it waits for the
  // migrations' lock, migrates, and starts its services; readiness and metrics are the platform's once it exists.
  let probe: (() => Promise<Readiness>) | null = null;
  let started: Platform | null = null;
  let ops: OpsServer | null = null;
  if (config.metricsPort !== null) {
    ops = await startOpsServer({
      host: config.host,
      port: config.metricsPort,
      trustProxy: config.trustProxy,
      ready: () => (probe ? probe() : Promise.resolve(STARTING)),
      metrics: {
        get contentType() {
          return started?.metrics.contentType ?? PROMETHEUS_TEXT;
        },
        render: async () => (started ? started.metrics.render() : ''),
      },
    });
  }
  const platform = await startPlatform(config, options).catch(async (err: unknown) => {
    await ops?.close();
    await tracing.shutdown();
    throw err;
  });
  started = platform;
  const application = createApplication(platform, options.adaptadores);
  let ready = false;
  const has = (s: AppConfig['services'][number]) => config.services.includes(s);
  // The read models' lag matters where they are read (the API) or filled (the projector).
  const readiness = readinessProbe({
    started: () => ready,
    pool: platform.pool,
    projections: has('api') || has('projector') ? platform.projections : null,
    maxLagS: config.readyMaxLagS,
    clock: platform.clock,
  });
  const composition = compose(platform, application, () => ready, readiness);
  const stops: { name: string; stop: () => Promise<void> }[] = [];
  probe = readiness;

  const report = (what: string) => (err: unknown) =>
    logger.error({ err, service: what }, `${what} failed and restarts from its checkpoint`);
  if (has('projector')) {
    await platform.projections.start(report('projector'));
    // The process that writes the read models reports their batch rows (one grouped count per scrape, not one per process).
    platform.metrics.watchLoteLinhas(() => linhasDeLotePorStatus(platform.readPool));
    stops.push({ name: 'projector', stop: () => platform.projections.stop() });
  }
  const kafka = config.kafkaBrokers
    ? new Kafka({
        clientId: `frete-${config.environment}`,
        brokers: config.kafkaBrokers,
        logLevel: logLevel.WARN,
        logCreator: kafkaLogCreator(logger),
      })
    : null;
  if (kafka && has('relay')) {
    const relay = new KafkaRelay(platform.store, platform.pool, kafka, { topic: config.kafkaTopic, onError: report('relay') });
    await relay.start();
    platform.metrics.watchRelay(relay.checkpointName, relayLag(platform.store, platform.pool, relay.checkpointName));
    stops.push({ name: 'relay', stop: () => relay.stop() });
  }
  const processors = composition.processors.filter((p) => has(`${p.name}-processor` as AppConfig['services'][number]));
  for (const processor of processors) {
    const concurrency =
      config.processorConcurrency[processor.name as keyof AppConfig['processorConcurrency']] ?? DEFAULT_PROCESSOR_CONCURRENCY;
    const transport: ProcessorTransport = kafka
      ? new KafkaTransport(kafka, { topic: config.kafkaTopic, concurrency })
      : new DirectTransport(platform.store, platform.pool, { concurrency, onError: report(`${processor.name} processor`) });
    await transport.start(observedProcessor(measuredProcessor(processor, platform.metrics), logger));
    stops.push({ name: `${processor.name}-processor`, stop: () => transport.stop() });
  }
  if (has('webhooks-processor')) {
    // The sending side of the webhooks processor: a loop of its own, so a slow receiver holds neither the log's reading
    // nor the API (see DespachanteWebhooks).
    const despachante = application.webhooks.despachante((err) =>
      logger.error({ err, service: 'webhooks-dispatcher' }, 'webhooks dispatcher: a round failed and the next one tries again'),
    );
    despachante.start();
    stops.push({ name: 'webhooks-dispatcher', stop: () => despachante.stop() });
  }
  // Without a distribution service (production before an authority is named) there is nothing to schedule.
  if (has('distribuicao-processor') && application.distribuicao.porta.disponivel) {
    // The distribution processor's schedule: it asks the consultations that are due, which the processor then runs.
    const agenda = application.distribuicao.agenda((err) =>
      logger.error({ err, service: 'distribuicao-schedule' }, 'distribution schedule: a look failed and the next one tries again'),
    );
    agenda.start();
    stops.push({ name: 'distribuicao-schedule', stop: () => agenda.stop() });
  }

  let api: FastifyInstance | null = null;
  let url: string | null = null;
  if (has('api')) {
    api = await buildApi(composition.api, options.logger ? { logger } : {});
    // The panel is served by the same HTTP server (its address, limits and request ids), but the API knows nothing of it.
    await api.register(consolePlugin(composition.console), { prefix: '/console' });
    url = await api.listen({ host: config.host, port: config.port });
    const a = api;
    stops.push({ name: 'api', stop: () => closeDraining(a) });
  }
  ready = true;
  let stopped = false;
  return {
    platform,
    application,
    api,
    url,
    opsUrl: ops?.url ?? null,
    logger,
    stop: async (report = () => undefined) => {
      // A second stop (a test that restarted the services, a signal during shutdown) has nothing left to stop.
      if (stopped) return;
      stopped = true;
      ready = false;
      // One part failing to stop must not keep the others (and PostgreSQL) running: each step is reported, done or failed.
      const step = (name: string, stop: () => Promise<void>) =>
        stop().then(
          () => report(name),
          (err: unknown) => report(`${name} (failed: ${err instanceof Error ? err.message : String(err)})`),
        );
      for (const { name, stop } of [...stops].reverse()) await step(name, stop);
      await step('schema validator', () => application.close());
      // Late, so probes and scrapes reach the process while it drains; before the database it reads goes away.
      if (ops) await step('ops server', () => ops.close());
      await platform.close(report);
      // Last: the spans of the stops above are sent too.
      if (tracing.enabled) await step('traces', () => tracing.shutdown());
    },
  };
}
