import { type NewEvent, type Position, type RecordedEvent, upcast } from '@frete/contracts';
import { type AppendResult, type EventStore, type ExpectedRevision, type SubscribeOptions, type Subscription } from './port';

/**
 * The store as every reader sees it (deciders' streams, projections, processors, the relay): events in their type's
 * current version, old versions turned by the catalogue's upcasters. Appends pass through untouched, and the store
 * underneath keeps events as recorded (the audit history and the hash chain read that).
 */
export class UpcastingEventStore implements EventStore {
  constructor(readonly recorded: EventStore) {}

  get kind(): EventStore['kind'] {
    return this.recorded.kind;
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.recorded.append(streamId, events, expected);
  }

  async readStream(streamId: string, after?: bigint): Promise<RecordedEvent[]> {
    return (await this.recorded.readStream(streamId, after)).map(upcast);
  }

  async readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    return (await this.recorded.readAll(from, maxCount)).map(upcast);
  }

  subscribeToAll({ from, onEvent, onBatch }: SubscribeOptions): Subscription {
    return this.recorded.subscribeToAll({
      from,
      onEvent: (e) => onEvent(upcast(e)),
      ...(onBatch ? { onBatch: (events: RecordedEvent[]) => onBatch(events.map(upcast)) } : {}),
    });
  }

  headPosition(): Promise<Position> {
    return this.recorded.headPosition();
  }

  async countAfter(from: Position, cap: number): Promise<number> {
    if (this.recorded.countAfter) return this.recorded.countAfter(from, cap);
    return (await this.recorded.readAll(from, cap)).length;
  }

  close(): Promise<void> {
    return this.recorded.close();
  }
}
