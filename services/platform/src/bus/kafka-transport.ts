import { type Consumer, type ConsumerConfig, type IHeaders, type Kafka } from 'kafkajs';
import { type Processor, type ProcessorTransport } from '../processors/processor';
import { EVENT_TYPE_HEADER, decodeEvent } from './codec';
import { ensureTopic } from './kafka';

export interface KafkaTransportOptions {
  /** The topic the relay produces to. */
  topic: string;
  /** Consumer settings (session timeout, heartbeat, fetch wait, ...); the group id is always `processor-<name>`. */
  consumer?: Omit<ConsumerConfig, 'groupId'>;
  /** Where a group without a committed offset starts: the beginning of the topic (default) or its end. */
  fromBeginning?: boolean;
  /** When the transport has to create the topic (it normally exists: the relay makes it). Default 6. */
  partitions?: number;
  replicationFactor?: number;
}

const headerText = (headers: IHeaders | undefined, name: string): string | undefined => {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
};

/**
 * Carries the relay's events to a processor as a Kafka consumer group (`processor-<name>`): more copies of the same
 * processor share the partitions, and every stream's events arrive in order. Offsets are committed by hand, one
 * message at a time, after the processor handled it; a consumer that stops between the two gets the message again
 * after the restart (at-least-once), and the processor's derived event ids make that second delivery append nothing.
 */
export class KafkaTransport implements ProcessorTransport {
  private consumer: Consumer | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: KafkaTransportOptions,
  ) {}

  /** Joins the group and starts consuming; resolves once the consumer has joined. */
  async start(processor: Processor): Promise<void> {
    if (this.consumer) throw new Error(`KafkaTransport for ${processor.name} is already started`);
    const { topic } = this.options;
    await ensureTopic(this.kafka, topic, {
      partitions: this.options.partitions,
      replicationFactor: this.options.replicationFactor,
    });
    const consumer = this.kafka.consumer({
      allowAutoTopicCreation: false,
      ...this.options.consumer,
      groupId: `processor-${processor.name}`,
    });
    this.consumer = consumer;
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: this.options.fromBeginning ?? true });
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ topic: from, partition, message }) => {
          // The type travels in a header too: events the processor does not handle are not even decoded.
          const type = headerText(message.headers, EVENT_TYPE_HEADER);
          if (message.value && (type === undefined || processor.handles(type))) {
            const event = decodeEvent(message.value);
            if (processor.handles(event.type) && (processor.needs?.(event) ?? true)) await processor.handle(event);
          }
          await consumer.commitOffsets([{ topic: from, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
        },
      });
    } catch (err) {
      this.consumer = null;
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
  }

  /** Leaves the group. A message being handled is not committed unless its handler finishes first. */
  stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    // disconnect() marks the consumer as stopping at once (synchronously), before it waits for the message in hand.
    return consumer ? consumer.disconnect() : Promise.resolve();
  }
}
