import { type Pool } from 'pg';
import { type Position, START } from '@frete/contracts';
import { type EventStore, type Subscription } from '../event-store/port';
import { supervisedSubscription } from '../event-store/supervised';
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

/**
 * Embedded default: the processor follows the event store itself, from its checkpoint. The checkpoint moves after
 * the handler succeeds, so a crash in between redelivers the event (the handler is idempotent).
 */
export class DirectTransport implements ProcessorTransport {
  private subscription: Subscription | null = null;
  private readonly checkpoints: SubscriptionCheckpoints;

  constructor(
    private readonly store: EventStore,
    pool: Pool,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.checkpoints = new SubscriptionCheckpoints(pool);
  }

  async start(processor: Processor): Promise<void> {
    const name = `processor:${processor.name}`;
    let skipped = 0;
    this.subscription = supervisedSubscription(this.store, {
      from: () => this.checkpoints.get(name),
      onEvent: async (event) => {
        if (processor.handles(event.type)) {
          await processor.handle(event);
        } else if (++skipped % 100 !== 0) {
          // Events the processor ignores move the checkpoint only now and then: replaying them is free.
          return;
        }
        await this.checkpoints.set(name, event.position);
      },
      onError: this.onError,
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
