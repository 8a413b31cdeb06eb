import { Kafka, logLevel } from 'kafkajs';

export type { Kafka } from 'kafkajs';

/** Partitions of the events topic when the relay creates it. Events are keyed by stream, so more partitions let more
 * consumers of a group work in parallel while each stream keeps its order. */
export const DEFAULT_TOPIC_PARTITIONS = 6;

export type KafkaLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

export interface KafkaClientOptions {
  /** `host:port`, comma-separated when a string (the form of `KAFKA_BROKERS`). */
  brokers: string | string[];
  clientId?: string;
  logLevel?: KafkaLogLevel;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
}

const LEVELS: Record<KafkaLogLevel, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

/** A kafkajs client for the given brokers. */
export function createKafka(options: KafkaClientOptions): Kafka {
  const brokers = Array.isArray(options.brokers)
    ? options.brokers
    : options.brokers
        .split(',')
        .map((b) => b.trim())
        .filter((b) => b.length > 0);
  if (brokers.length === 0) throw new Error('createKafka: no brokers given');
  return new Kafka({
    clientId: options.clientId ?? 'frete',
    brokers,
    logLevel: LEVELS[options.logLevel ?? 'warn'],
    connectionTimeout: options.connectionTimeoutMs ?? 3000,
    requestTimeout: options.requestTimeoutMs ?? 30000,
    retry: { initialRetryTime: 100, retries: 8 },
  });
}

export interface TopicOptions {
  partitions?: number;
  replicationFactor?: number;
}

/** Creates the topic unless it exists, and waits until its partitions have leaders. True when it created it. */
export async function ensureTopic(kafka: Kafka, topic: string, options: TopicOptions = {}): Promise<boolean> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    // Asked first: a creation refused because the topic exists is logged by kafkajs as an error, at every start of
    // every process of a deployment.
    if ((await admin.listTopics()).includes(topic)) return false;
    return await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic,
          numPartitions: options.partitions ?? DEFAULT_TOPIC_PARTITIONS,
          replicationFactor: options.replicationFactor ?? 1,
        },
      ],
    });
  } finally {
    await admin.disconnect();
  }
}
