import { type FastifyInstance } from 'fastify';
import { Kafka, logLevel } from 'kafkajs';
import { buildApi, type ApiDeps } from '@frete/api';
import {
  type AppConfig,
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
  stop(): Promise<void>;
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
  const stops: (() => Promise<void>)[] = [];
  const has = (s: AppConfig['services'][number]) => config.services.includes(s);

  const report = (what: string) => (err: unknown) =>
    console.error(`${what} failed and restarts from its checkpoint: ${err instanceof Error ? err.message : String(err)}`);
  if (has('projector')) {
    await platform.projections.start(report('projector'));
    stops.push(() => platform.projections.stop());
  }
  const kafka = config.kafkaBrokers
    ? new Kafka({ clientId: `frete-${config.environment}`, brokers: config.kafkaBrokers, logLevel: logLevel.WARN })
    : null;
  if (kafka && has('relay')) {
    const relay = new KafkaRelay(platform.store, platform.pool, kafka, { topic: config.kafkaTopic });
    await relay.start();
    stops.push(() => relay.stop());
  }
  const processors = di.resolve<Processor[]>(TOKENS.Processors).filter((p) => has(`${p.name}-processor` as AppConfig['services'][number]));
  for (const processor of processors) {
    const transport: ProcessorTransport = kafka
      ? new KafkaTransport(kafka, { topic: config.kafkaTopic })
      : new DirectTransport(platform.store, platform.pool, report(`${processor.name} processor`));
    await transport.start(processor);
    stops.push(() => transport.stop());
  }

  let api: FastifyInstance | null = null;
  let url: string | null = null;
  if (has('api')) {
    api = await buildApi(di.resolve<ApiDeps>(TOKENS.ApiDeps), { logger: options.logger ? { level: config.logLevel } : false });
    url = await api.listen({ host: config.host, port: config.port });
    const a = api;
    stops.unshift(() => a.close());
  }
  ready = true;
  return {
    platform,
    application,
    api,
    url,
    stop: async () => {
      ready = false;
      for (const stop of stops) await stop().catch(() => undefined);
      await application.close();
      await platform.close();
    },
  };
}
