import {
  ANY,
  type AllStreamResolvedEvent,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START as ESDB_START,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { type EventMetadata, type NewEvent, type Position, type RecordedEvent, START, comparePositions } from '@frete/contracts';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from './port';

interface StoredMetadata extends EventMetadata {
  $schemaVersion: number;
  $correlationId: string;
  $causationId: string | null;
}

const isStart = (p: Position) => comparePositions(p, START) === 0;

const toRecorded = (resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null => {
  const e = resolved.event;
  if (!e || !e.isJson || !e.position) return null;
  const { $schemaVersion, $correlationId: _c, $causationId: _k, ...metadata } = e.metadata as unknown as StoredMetadata;
  return {
    id: e.id,
    type: e.type,
    schemaVersion: $schemaVersion ?? 1,
    data: e.data,
    metadata,
    streamId: e.streamId,
    revision: e.revision,
    position: { commit: e.position.commit, prepare: e.position.prepare },
    recordedAt: e.created,
  };
};

/**
 * EventStoreDB adapter (production). Event ids give the server's own idempotent append; the schema version
 * rides in the metadata beside the correlation and causation ids EventStoreDB's projections understand.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;

  constructor(private readonly client: EventStoreDBClient) {}

  static connect(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const data = events.map((e) =>
      jsonEvent({
        id: e.id,
        type: e.type,
        data: e.data as Record<string, unknown>,
        metadata: {
          ...e.metadata,
          $schemaVersion: e.schemaVersion,
          $correlationId: e.metadata.correlation_id,
          $causationId: e.metadata.causation_id,
        } satisfies StoredMetadata,
      }),
    );
    try {
      const result = await this.client.appendToStream(streamId, data, {
        expectedRevision: expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : expected,
      });
      const position = result.position ?? (await this.positionOfLast(streamId));
      return { nextRevision: result.nextExpectedRevision, position };
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) {
        const actual = err.actualVersion;
        throw new WrongExpectedRevision(streamId, expected, typeof actual === 'bigint' ? actual : 'no_stream');
      }
      throw err;
    }
  }

  private async positionOfLast(streamId: string): Promise<Position> {
    const events = await this.readStream(streamId);
    return events[events.length - 1]?.position ?? START;
  }

  async readStream(streamId: string, after?: bigint): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: after === undefined ? ESDB_START : after + 1n,
      })) {
        const e = toRecorded(resolved);
        if (e) out.push(e);
      }
    } catch (err) {
      if ((err as { type?: string }).type === 'stream-not-found') return [];
      throw err;
    }
    return out;
  }

  async readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    // readAll's position is inclusive; the port's is exclusive.
    const reading = this.client.readAll({
      direction: FORWARDS,
      fromPosition: isStart(from) ? ESDB_START : from,
      maxCount: maxCount + 1,
    });
    for await (const resolved of reading) {
      if (!resolved.event || resolved.event.type.startsWith('$') || resolved.event.streamId.startsWith('$')) continue;
      const e = toRecorded(resolved);
      if (!e || comparePositions(e.position, from) <= 0) continue;
      out.push(e);
      if (out.length === maxCount) break;
    }
    return out;
  }

  subscribeToAll({ from, onEvent }: SubscribeOptions): Subscription {
    // The subscription's position is exclusive, like the port's.
    const subscription = this.client.subscribeToAll({
      fromPosition: isStart(from) ? ESDB_START : from,
      filter: excludeSystemEvents(),
    });
    let stopping = false;
    const done = (async () => {
      try {
        for await (const resolved of subscription) {
          const e = toRecorded(resolved);
          if (e) await onEvent(e);
        }
      } catch (err) {
        if (!stopping) throw err;
      }
    })();
    return {
      done,
      stop: async () => {
        stopping = true;
        await subscription.unsubscribe();
        await done.catch(() => undefined);
      },
    };
  }

  async headPosition(): Promise<Position> {
    for await (const resolved of this.client.readAll({ direction: 'backwards', fromPosition: 'end', maxCount: 1 })) {
      if (resolved.event?.position) return { ...resolved.event.position };
    }
    return START;
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
