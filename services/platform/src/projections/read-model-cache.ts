import { LRUCache } from 'lru-cache';
import { comparePositions, type Position } from '@frete/contracts';
import { type NotificationListener } from '../db/notification-listener';
import { CHECKPOINT_CHANNEL, type CheckpointAdvance, decodeCheckpointAdvance } from './checkpoint-advance';

export interface ReadModelCacheOptions {
  /** The aggregates (event type prefixes) whose read models the rows are made of: a batch touching one empties it. */
  aggregates: readonly string[];
  /** The longest a row is served from memory (a notification lost on a broken connection, at worst). */
  ttlMs?: number;
  max?: number;
}

/**
 * Read-model rows already looked up, by a key of the caller's (a credential by its API key's SHA-256, a company's
 * webhook endpoints): without it, every request or event costs a query. It serves only while this process hears the
 * read models' batches: one that touches one of its aggregates empties it (this process's own runner at once,
 * another's by its notification), and so does losing the listener, which also stops it serving until it listens again.
 * A lookup that began before an emptying is not kept, so a revocation cannot be undone by a request that read the row
 * just before it.
 */
export class ReadModelCache<T extends object> {
  private readonly entries: LRUCache<string, T>;
  private listener: NotificationListener | null = null;
  /** Bumped by every emptying; a lookup keeps its row only if none happened while it ran. */
  private generation = 0;
  /**
   * The latest batch heard, by runner. A runner's batches commit one after the other (it locks its checkpoint), so one
   * heard at or before it was committed before an emptying already done: its notification, coming after the runner of
   * this process told the same batch, must not empty what was looked up since.
   */
  private readonly heard = new Map<string, Position>();

  private readonly aggregates: ReadonlySet<string>;

  constructor(options: ReadModelCacheOptions) {
    this.aggregates = new Set(options.aggregates);
    this.entries = new LRUCache<string, T>({ max: options.max ?? 10_000, ttl: options.ttlMs ?? 1000 });
  }

  follow(listener: NotificationListener): void {
    this.listener = listener;
    listener.add({
      notification: (channel, payload) => {
        if (channel !== CHECKPOINT_CHANNEL) return;
        const advance = decodeCheckpointAdvance(payload);
        // A payload this code did not write may say anything: forget, to be safe.
        if (!advance) this.clear();
        else this.checkpointAdvanced(advance);
      },
      listening: () => this.clear(),
      lost: () => this.clear(),
    });
  }

  /** A batch of the read models committed: forget everything if it touched one of the aggregates. */
  checkpointAdvanced(advance: CheckpointAdvance): void {
    const last = this.heard.get(advance.name);
    if (last && comparePositions(advance.position, last) <= 0) return;
    this.heard.set(advance.name, advance.position);
    if (advance.aggregates.some((a) => this.aggregates.has(a))) this.clear();
  }

  /** The row under `key`, looked up with `find` unless kept; a row `find` cannot find (null) is never kept. */
  async get(key: string, find: () => Promise<T | null>): Promise<T | null> {
    const serving = this.listener?.up ?? false;
    if (serving) {
      const kept = this.entries.get(key);
      if (kept) return kept;
    }
    const generation = this.generation;
    const found = await find();
    if (found && serving && this.listener?.up && generation === this.generation) this.entries.set(key, found);
    return found;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
