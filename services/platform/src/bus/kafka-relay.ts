import { type Pool } from 'pg';
import { type Kafka, type Producer, Partitioners } from 'kafkajs';
import { type RecordedEvent } from '@frete/contracts';
import { type EventStore, type Subscription } from '../event-store/port';
import { SubscriptionCheckpoints } from '../processors/direct';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, encodeEvent } from './codec';
import { ensureTopic } from './kafka';
import { Backoff } from '../retry/backoff';
import { relayPublishSpan } from '../observability/relay-span';

/** Messages per produce request: a store batch (500) of events of a few KB stays well under the broker's limits. */
const POR_ENVIO = 200;

export interface KafkaRelayOptions {
  topic: string;
  /** Name of the relay's row in `subscription_checkpoints`. */
  checkpointName?: string;
  /** When the relay creates the topic: its partitions (default 6) and replication factor (default 1). */
  partitions?: number;
  replicationFactor?: number;
  /** Told when following the store or producing failed; the relay then starts again from its checkpoint. */
  onError?: (err: unknown) => void;
  /** Pause before starting again after a failure (default 1000 ms). */
  retryDelayMs?: number;
}

/**
 * Follows the event store from a checkpoint and produces its events to Kafka, keyed by their stream, so that all
 * events of one stream land in one partition in stream order. The producer is idempotent with one request in
 * flight, and each request (events the store read together, in order) is sent only after the previous one was
 * acknowledged, so the broker's order per stream is the store's. The checkpoint moves after the broker acknowledged:
 * a crash in between sends those events again (at-least-once), which consumers absorb because processors are
 * idempotent.
 */
export class KafkaRelay {
  readonly checkpointName: string;
  private readonly checkpoints: SubscriptionCheckpoints;
  private running = false;
  private producer: Producer | null = null;
  private subscription: Subscription | null = null;
  private stopping = new AbortController();
  private supervising: Promise<void> | null = null;

  constructor(
    private readonly store: EventStore,
    pool: Pool,
    private readonly kafka: Kafka,
    private readonly options: KafkaRelayOptions,
  ) {
    this.checkpointName = options.checkpointName ?? 'relay:kafka';
    this.checkpoints = new SubscriptionCheckpoints(pool);
  }

  /** Ensures the topic, connects the producer and starts following the store from the checkpoint. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = new AbortController();
    try {
      await ensureTopic(this.kafka, this.options.topic, {
        partitions: this.options.partitions,
        replicationFactor: this.options.replicationFactor,
      });
      await this.follow();
    } catch (err) {
      this.running = false;
      await this.disconnectProducer();
      throw err;
    }
    this.supervising = this.restartOnFailure(this.stopping.signal);
  }

  /** Stops after the event in hand was sent and checkpointed. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopping.abort();
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
    await this.supervising;
    this.supervising = null;
    await this.disconnectProducer();
  }

  private async follow(): Promise<void> {
    const producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.producer = producer;
    await producer.connect();
    const from = await this.checkpoints.get(this.checkpointName);
    // Checked and subscribed in one step: a stop() from now on finds the subscription and ends it.
    if (!this.running) return;
    this.subscription = this.store.subscribeToAll({
      from,
      onEvent: (event) => this.relay(producer, [event]),
      onBatch: (events) => this.relay(producer, events),
    });
  }

  /**
   * Waits on the subscription; when it fails, reports it and, after the pause, reconnects the producer and follows
   * again from the checkpoint, until stop().
   */
  private async restartOnFailure(stopped: AbortSignal): Promise<void> {
    const delay = this.options.retryDelayMs ?? 1000;
    const restarts = new Backoff({ signal: stopped, baseMs: delay, capMs: delay, jitter: 'none' });
    do {
      try {
        if (restarts.attempt > 1) {
          await this.disconnectProducer();
          if (stopped.aborted) return;
          await this.follow();
        }
        const subscription = this.subscription;
        if (!subscription) return;
        await subscription.done;
        return;
      } catch (err) {
        if (stopped.aborted) return;
        this.subscription = null;
        this.options.onError?.(err);
      }
    } while (await restarts.next());
  }

  /**
   * Sends what the store read together in requests of at most `POR_ENVIO` messages, each acknowledged before the next
   * (one request in flight: the order per partition is the store's), then moves the checkpoint once, to the last.
   */
  private async relay(producer: Producer, events: RecordedEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += POR_ENVIO) {
      const slice = events.slice(i, i + POR_ENVIO);
      const spans = slice.map(relayPublishSpan);
      try {
        await producer.send({
          topic: this.options.topic,
          acks: -1,
          messages: slice.map((event) => ({
            key: event.streamId,
            value: encodeEvent(event),
            headers: { [EVENT_TYPE_HEADER]: event.type, [EVENT_ID_HEADER]: event.id },
          })),
        });
      } catch (err) {
        for (const span of spans) span.fail(err);
        throw err;
      } finally {
        for (const span of spans) span.end();
      }
    }
    await this.checkpoints.set(this.checkpointName, events[events.length - 1]!.position);
  }

  private async disconnectProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    await producer?.disconnect().catch(() => undefined);
  }
}
