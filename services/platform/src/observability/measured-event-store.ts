import { type NewEvent, type Position, type RecordedEvent } from '@frete/contracts';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from '../event-store/port';
import { type Metrics, quietly } from './metrics';

const seconds = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

/**
 * The store with its appends and reads timed (`frete_event_store_*`). It sits under the upcasting store, so what it
 * measures is the adapter's own work; subscriptions and the head pass through untouched (their reads are the
 * projector's and the relay's, whose lag gauges say more than a latency would).
 */
export class MeasuredEventStore implements EventStore {
  constructor(
    readonly inner: EventStore,
    private readonly metrics: Metrics,
  ) {}

  get kind(): EventStore['kind'] {
    return this.inner.kind;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const start = process.hrtime.bigint();
    try {
      const result = await this.inner.append(streamId, events, expected);
      quietly(() => {
        this.metrics.storeAppendDuration.observe({ outcome: 'ok' }, seconds(start));
        this.metrics.storeAppendedEvents.inc(events.length);
      });
      return result;
    } catch (err) {
      // A conflict is the optimistic check doing its job (the caller folds again and retries), not a fault.
      const outcome = err instanceof WrongExpectedRevision ? 'conflict' : 'error';
      quietly(() => this.metrics.storeAppendDuration.observe({ outcome }, seconds(start)));
      throw err;
    }
  }

  readStream(streamId: string, after?: bigint): Promise<RecordedEvent[]> {
    return this.timedRead('read_stream', () => this.inner.readStream(streamId, after));
  }

  readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    return this.timedRead('read_all', () => this.inner.readAll(from, maxCount));
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.inner.subscribeToAll(options);
  }

  headPosition(): Promise<Position> {
    return this.inner.headPosition();
  }

  countAfter(from: Position, cap: number): Promise<number> {
    // Optional on the port: the upcasting store above falls back to readAll when the adapter has none.
    return this.inner.countAfter ? this.inner.countAfter(from, cap) : this.inner.readAll(from, cap).then((events) => events.length);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async timedRead(operation: 'read_stream' | 'read_all', read: () => Promise<RecordedEvent[]>): Promise<RecordedEvent[]> {
    const start = process.hrtime.bigint();
    try {
      const events = await read();
      quietly(() => this.metrics.storeReadDuration.observe({ operation, outcome: 'ok' }, seconds(start)));
      return events;
    } catch (err) {
      quietly(() => this.metrics.storeReadDuration.observe({ operation, outcome: 'error' }, seconds(start)));
      throw err;
    }
  }
}
