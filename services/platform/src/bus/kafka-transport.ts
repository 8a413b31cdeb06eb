import { type Consumer, type ConsumerConfig, type IHeaders, type Kafka } from 'kafkajs';
import { type Processor, type ProcessorTransport } from '../processors/processor';
import { type RecordedEvent, upcast } from '@frete/contracts';
import { ConcurrentDispatch } from '../processors/concurrent-dispatch';
import { EVENT_TYPE_HEADER, decodeEvent } from './codec';
import { ensureTopic } from './kafka';

export interface KafkaTransportOptions {
  /** The topic the relay produces to. */
  topic: string;
  /** Consumer settings (session timeout, heartbeat, fetch wait, ...); the group id is always `consumerGroupOf(topic, name)`. */
  consumer?: Omit<ConsumerConfig, 'groupId'>;
  /** Where a group without a committed offset starts: the beginning of the topic (default) or its end. */
  fromBeginning?: boolean;
  /** Messages of one partition handled at once (see `ConcurrentDispatch`); 1 handles them one after another. Default 16. */
  concurrency?: number;
  /** When the transport has to create the topic (it normally exists: the relay makes it). Default 6. */
  partitions?: number;
  replicationFactor?: number;
}

/**
 * The consumer group of a processor on a topic: `<topic>.processor-<name>`. Named after the topic so that two
 * deployments (or environments, or test runs) sharing a Kafka cluster never join each other's group: a group whose
 * members read different topics rebalances them all together, and a dead member of one stalls the others.
 */
export const consumerGroupOf = (topic: string, processorName: string): string => `${topic}.processor-${processorName}`;

const headerText = (headers: IHeaders | undefined, name: string): string | undefined => {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
};

/**
 * Carries the relay's events to a processor as a Kafka consumer group (`<topic>.processor-<name>`): more copies of the same
 * processor share the partitions. The messages a fetch brings from a partition are handled side by side, those of one
 * key (a stream, unless the processor says otherwise) one after another in their order; the partition's offset is
 * committed by hand up to the end of the prefix of messages all handled. A consumer that stops before a commit gets
 * those messages again after the restart (at-least-once), and the processor's derived event ids make a second delivery
 * append nothing. A failed handler fails the batch: the consumer seeks back to the committed offset and tries again.
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
      groupId: consumerGroupOf(topic, processor.name),
    });
    this.consumer = consumer;
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: this.options.fromBeginning ?? true });
      const keyOf = processor.keyOf ? (e: RecordedEvent) => processor.keyOf!(e) : (e: RecordedEvent) => e.streamId;
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
          const { topic: from, partition } = batch;
          let failure: { err: unknown } | null = null;
          const dispatch = new ConcurrentDispatch<string>({
            concurrency: this.options.concurrency ?? 16,
            keyOf,
            handle: (event) => processor.handle(event),
            checkpoint: async (offset) => {
              resolveOffset(offset);
              // Not consumer.commitOffsets: once stop() began it silently commits nothing, and the handlers a stop
              // waits for would be delivered again after the restart. The batch's own commit works until the group is left.
              await commitOffsetsIfNecessary({
                topics: [{ topic: from, partitions: [{ partition, offset: (BigInt(offset) + 1n).toString() }] }],
              });
              await heartbeat();
            },
            onFailure: (err) => {
              failure = { err };
            },
          });
          try {
            for (const message of batch.messages) {
              if (!isRunning() || isStale()) break;
              // The type travels in a header too: events the processor does not handle are not even decoded.
              const type = headerText(message.headers, EVENT_TYPE_HEADER);
              let event: RecordedEvent | null = null;
              if (message.value && (type === undefined || processor.handles(type))) {
                // Messages published before an event's shape changed are upcast as the store's readers are.
                const decoded = upcast(decodeEvent(message.value));
                if (processor.handles(decoded.type) && (processor.needs?.(decoded) ?? true)) event = decoded;
              }
              await dispatch.submit(message.offset, event);
            }
          } catch (err) {
            // A handler's failure stopped the dispatch: thrown below, once what was admitted has ended. Anything else
            // (a message that cannot be decoded) is thrown as well, after the same wait.
            if (!dispatch.failed) failure = { err };
          }
          await dispatch.settle();
          if (failure) throw (failure as { err: unknown }).err;
        },
      });
    } catch (err) {
      this.consumer = null;
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Stops fetching, waits for the handlers in flight, commits the offsets of what they finished, then leaves the group.
   */
  stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    // disconnect() marks the consumer as stopping at once (synchronously), before it waits for the message in hand.
    return consumer ? consumer.disconnect() : Promise.resolve();
  }
}
