import { type NewEvent, type Position, type RecordedEvent } from '@frete/contracts';
import { type AppendResult, type EventStore, type ExpectedRevision, type SubscribeOptions, type Subscription } from '../event-store/port';
import { activeTraceparent, inSpan, SpanKind } from './spans';

/**
 * The store with each append in an `eventstore.append` span, whose trace context the appended events carry in their
 * metadata (`traceparent`): whoever handles them later, in this process or across Kafka, continues that trace. With
 * tracing off the metadata is left as it is.
 */
export class TracedEventStore implements EventStore {
  readonly countAfter?: (from: Position, cap: number) => Promise<number>;

  constructor(private readonly inner: EventStore) {
    if (inner.countAfter) this.countAfter = (from, cap) => inner.countAfter!(from, cap);
  }

  get kind(): EventStore['kind'] {
    return this.inner.kind;
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return inSpan(
      'eventstore.append',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'eventstore.stream': streamId,
          'eventstore.event_types': [...new Set(events.map((e) => e.type))],
          'eventstore.events': events.length,
        },
      },
      (span) => {
        const traceparent = activeTraceparent();
        const stamped = traceparent
          ? events.map((e) => (e.metadata.traceparent ? e : { ...e, metadata: { ...e.metadata, traceparent } }))
          : events;
        return this.inner.append(streamId, stamped, expected).then((result) => {
          span.setAttribute('eventstore.next_revision', result.nextRevision.toString());
          return result;
        });
      },
    );
  }

  readStream(streamId: string, after?: bigint): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, after);
  }

  readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    return this.inner.readAll(from, maxCount);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.inner.subscribeToAll(options);
  }

  headPosition(): Promise<Position> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
