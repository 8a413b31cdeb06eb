import { type NewEvent, type Position, type RecordedEvent, START, comparePositions } from '@frete/contracts';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from './port';

/**
 * The event-store port in memory, for the fast middle tier of tests: handler, workflow and processor specifications
 * run on it without PostgreSQL. It passes the same conformance suite as the PostgreSQL and EventStoreDB adapters
 * (test/conformance): atomic appends with expected revisions, idempotent repeats of the same event ids, a global order,
 * catch-up subscriptions. One process only: nothing survives it, and nothing is shared with another.
 *
 * Events are copied in and out (structured clones), so a caller that changes what it appended or read never changes
 * the log, as with a database.
 */
export class MemoryEventStore implements EventStore {
  readonly kind = 'memoria' as const;
  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly byId = new Map<string, RecordedEvent>();
  private readonly listeners = new Set<() => void>();
  private closed = false;

  constructor(private readonly clock: () => Date = () => new Date()) {}

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    // Every check and write below happens in one turn of the event loop: concurrent appends are serialised for free.
    await Promise.resolve();
    const stream = this.streams.get(streamId) ?? [];
    const repeat = this.repeatOf(streamId, events);
    if (repeat) return repeat;
    const actual = stream.length === 0 ? ('no_stream' as const) : BigInt(stream.length - 1);
    if (expected === 'no_stream' ? actual !== 'no_stream' : expected !== 'any' && expected !== actual) {
      throw new WrongExpectedRevision(streamId, expected, actual);
    }
    if (events.some((e) => this.byId.has(e.id))) throw new WrongExpectedRevision(streamId, expected, actual);
    const recordedAt = this.clock();
    for (const e of events) {
      const n = BigInt(this.log.length + 1);
      const recorded: RecordedEvent = {
        id: e.id,
        streamId,
        type: e.type,
        schemaVersion: e.schemaVersion,
        revision: BigInt(stream.length),
        position: { commit: n, prepare: n },
        data: structuredClone(e.data),
        metadata: structuredClone(e.metadata),
        recordedAt,
      };
      stream.push(recorded);
      this.log.push(recorded);
      this.byId.set(e.id, recorded);
    }
    this.streams.set(streamId, stream);
    for (const wake of [...this.listeners]) wake();
    const last = stream[stream.length - 1]!;
    return { nextRevision: last.revision, position: last.position };
  }

  /** The same ids already in this stream, in this order and together: the append happened before; answer as then. */
  private repeatOf(streamId: string, events: NewEvent[]): AppendResult | null {
    const found = events.map((e) => this.byId.get(e.id));
    if (found.every((f) => f === undefined)) return null;
    const same =
      found.every((f) => f !== undefined && f.streamId === streamId) &&
      found.every((f, i) => i === 0 || f!.revision === found[i - 1]!.revision + 1n);
    if (!same) {
      const first = found.find((f) => f !== undefined)!;
      throw new WrongExpectedRevision(streamId, 'any', first.revision);
    }
    const last = found[found.length - 1]!;
    return { nextRevision: last.revision, position: last.position };
  }

  async readStream(streamId: string, after?: bigint): Promise<RecordedEvent[]> {
    const stream = this.streams.get(streamId) ?? [];
    const from = after === undefined || after < 0n ? 0 : Number(after) + 1;
    return stream.slice(from).map(copy);
  }

  async readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    return this.after(from).slice(0, maxCount).map(copy);
  }

  private after(from: Position): RecordedEvent[] {
    // Positions are 1..n in log order: the index of the first event after `from` is its commit number.
    const start = comparePositions(from, START) <= 0 ? 0 : Number(from.commit);
    return this.log.slice(start);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    let stopped = false;
    let wake: (() => void) | null = null;
    const sleep = () =>
      new Promise<void>((resolve) => {
        wake = () => {
          this.listeners.delete(wake!);
          resolve();
        };
        this.listeners.add(wake);
      });
    const run = async () => {
      let from = options.from;
      while (!stopped && !this.closed) {
        const batch = this.after(from).slice(0, 500).map(copy);
        if (batch.length === 0) {
          await sleep();
          continue;
        }
        if (options.onBatch) await options.onBatch(batch);
        else for (const e of batch) await options.onEvent(e);
        from = batch[batch.length - 1]!.position;
      }
    };
    const done = run();
    return {
      done,
      stop: async () => {
        stopped = true;
        if (wake) (wake as () => void)();
        await done.catch(() => undefined);
      },
    };
  }

  async headPosition(): Promise<Position> {
    return this.log.length === 0 ? START : this.log[this.log.length - 1]!.position;
  }

  async countAfter(from: Position, cap: number): Promise<number> {
    return Math.min(this.after(from).length, cap);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of [...this.listeners]) wake();
  }
}

const copy = (e: RecordedEvent): RecordedEvent => ({ ...e, data: structuredClone(e.data), metadata: structuredClone(e.metadata) });
