import { type Pool } from 'pg';
import { type Position, type RecordedEvent, START } from '@frete/contracts';
import { type EventStore } from '../event-store/port';
import { type SupervisedSubscription, supervisedSubscription } from '../event-store/supervised';
import { ConcurrentDispatch } from './concurrent-dispatch';
import { type Processor, type ProcessorTransport } from './processor';

/** Where a named subscription stands, in `subscription_checkpoints`. */
export class SubscriptionCheckpoints {
  constructor(private readonly pool: Pool) {}

  async get(name: string): Promise<Position> {
    const { rows } = await this.pool.query<{ commit_pos: string; prepare_pos: string }>(
      `SELECT commit_pos, prepare_pos FROM subscription_checkpoints WHERE name = $1`,
      [name],
    );
    return rows[0] ? { commit: BigInt(rows[0].commit_pos), prepare: BigInt(rows[0].prepare_pos) } : START;
  }

  async set(name: string, position: Position): Promise<void> {
    await this.pool.query(
      `INSERT INTO subscription_checkpoints (name, commit_pos, prepare_pos, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (name) DO UPDATE SET commit_pos = EXCLUDED.commit_pos, prepare_pos = EXCLUDED.prepare_pos, updated_at = now()`,
      [name, position.commit.toString(), position.prepare.toString()],
    );
  }
}

export interface DirectTransportOptions {
  /** Events handled at once (see `ConcurrentDispatch`); 1 handles them one after another. */
  concurrency?: number;
  onError?: (err: unknown) => void;
}

/** A processor's checkpoint is written at most this often while it is busy (see `ConcurrentDispatch`). */
const CHECKPOINT_EVERY_MS = 200;

/** Events in flight per processor when the deployment does not say. */
export const DEFAULT_PROCESSOR_CONCURRENCY = 16;

/**
 * Embedded default: the processor follows the event store itself, from its checkpoint, handling events of different
 * keys side by side. The checkpoint moves past an event only once it and every earlier one were handled, so a crash in
 * between redelivers them (the handlers are idempotent).
 */
export class DirectTransport implements ProcessorTransport {
  private subscription: SupervisedSubscription | null = null;
  private dispatch: ConcurrentDispatch | null = null;
  private readonly checkpoints: SubscriptionCheckpoints;
  private readonly concurrency: number;
  private readonly onError: (err: unknown) => void;

  constructor(
    private readonly store: EventStore,
    pool: Pool,
    options: DirectTransportOptions = {},
  ) {
    this.checkpoints = new SubscriptionCheckpoints(pool);
    this.concurrency = options.concurrency ?? DEFAULT_PROCESSOR_CONCURRENCY;
    this.onError = options.onError ?? (() => undefined);
  }

  async start(processor: Processor): Promise<void> {
    const name = `processor:${processor.name}`;
    const keyOf = processor.keyOf ? (e: RecordedEvent) => processor.keyOf!(e) : (e: RecordedEvent) => e.streamId;
    // The failure that stopped a dispatch is reported once, not again when the subscription it ended rejects with it.
    const reported = new WeakSet<object>();
    const report = (err: unknown) => {
      if (typeof err === 'object' && err !== null) {
        if (reported.has(err)) return;
        reported.add(err);
      }
      this.onError(err);
    };
    this.subscription = supervisedSubscription(this.store, {
      from: async () => {
        // A restart begins where the previous run's handled prefix ends, once its handlers have all ended.
        await this.dispatch?.settle();
        const dispatch = new ConcurrentDispatch({
          concurrency: this.concurrency,
          keyOf,
          handle: (event) => processor.handle(event),
          checkpoint: (position) => this.checkpoints.set(name, position),
          checkpointEveryMs: CHECKPOINT_EVERY_MS,
          onFailure: (err) => {
            report(err);
            this.subscription?.restart();
          },
        });
        this.dispatch = dispatch;
        return this.checkpoints.get(name);
      },
      onEvent: (event) =>
        this.dispatch!.submit(event.position, processor.handles(event.type) && (processor.needs?.(event) ?? true) ? event : null),
      onError: report,
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
    await this.dispatch?.settle();
    this.dispatch = null;
  }
}
