import { type NewEvent, type Position, type RecordedEvent } from '@frete/contracts';

/** `any`, `no_stream`, or the exact revision (0-based) of the stream's last event. */
export type ExpectedRevision = 'any' | 'no_stream' | bigint;

export interface AppendResult {
  /** Revision of the last event written (or found, for an idempotent repeat). */
  nextRevision: bigint;
  position: Position;
}

export class WrongExpectedRevision extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, found ${String(actual)}`);
    this.name = 'WrongExpectedRevision';
  }
}

export interface Subscription {
  stop(): Promise<void>;
  /** Settles when the subscription ends: after stop(), or rejected with the error that ended it. */
  readonly done: Promise<void>;
}

export interface SubscribeOptions {
  /** Exclusive: the subscription starts after this position; START for the beginning. */
  from: Position;
  onEvent(event: RecordedEvent): Promise<void>;
  /**
   * When given, the events read together are handed over together, in order, instead of one by one (the projections
   * apply a batch in one transaction). Adapters that deliver events one at a time call `onEvent` instead.
   */
  onBatch?(events: RecordedEvent[]): Promise<void>;
}

/**
 * The event-store port. Adapters: PostgreSQL (embedded default), EventStoreDB, and in memory (the tests' middle
 * tier). All pass the conformance suite in test/conformance/event-store.
 */
export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb' | 'memoria';
  /**
   * Appends atomically. Repeating an append whose event ids were already written to that stream at that place
   * succeeds without writing anything (idempotent append), so redelivered work appends nothing new.
   */
  append(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /**
   * The events of one stream in order, all of them or only those after revision `after` (a reader that already
   * folded up to it); [] for a stream that does not exist.
   */
  readStream(streamId: string, after?: bigint): Promise<RecordedEvent[]>;
  /** Events after `from` in global order, at most `maxCount`. */
  readAll(from: Position, maxCount: number): Promise<RecordedEvent[]>;
  /** Catch-up subscription: history after `from`, then live events, one at a time, awaiting the handler. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  /** Position of the last committed event (a catch-up target; readers may take a moment to reach it), START when empty. */
  headPosition(): Promise<Position>;
  /**
   * How many events lie after `from`, counting at most `cap` (a lag gauge, not a census). Optional: without it the
   * count is read off `readAll`.
   */
  countAfter?(from: Position, cap: number): Promise<number>;
  close(): Promise<void>;
}
