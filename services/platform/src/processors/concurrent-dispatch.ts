import { type Position, type RecordedEvent } from '@frete/contracts';
import { KeyedLock } from '../concurrency/keyed-lock';

/** `M`: what marks an event's place for the checkpoint (its position in the store, an offset in a Kafka partition). */
export interface ConcurrentDispatchOptions<M = Position> {
  /** Events admitted and not yet handled, at most (those waiting behind an earlier event of their key count too). */
  concurrency: number;
  /** Events of one key are handled one after another, in their order; events of different keys side by side. */
  keyOf(event: RecordedEvent): string;
  handle(event: RecordedEvent): Promise<void>;
  /** Saves a position every event up to which has been handled: a restart from it misses nothing. */
  checkpoint(mark: M): Promise<void>;
  /** A handler (or a checkpoint) failed: nothing more is admitted; the owner restarts from the checkpoint. */
  onFailure(err: unknown): void;
  /**
   * A save at most this often (0: as soon as the handled prefix moves, one save at a time). A busy processor would
   * otherwise write its checkpoint for nearly every event; a crash in between replays a few more, which its
   * idempotent handlers allow. `settle` saves at once.
   */
  checkpointEveryMs?: number;
}

interface Admitted<M> {
  mark: M;
  done: boolean;
  /** Whether a handler ran for it: a prefix of ignored events alone does not need saving at once. */
  handled: boolean;
}

/** Ignored events move the checkpoint only now and then: replaying them is free. */
const IGNORED_PER_SAVE = 100;

/**
 * Hands events to their handler in delivery order, several at a time: the checkpoint only ever moves to the end of the
 * prefix of events all handled, so an event handled early (after a slower one) is handled again after a crash, which a
 * processor's idempotent handlers already allow. Once a handler fails nothing more is admitted; what ran is saved up to
 * the failed event and the owner starts again from there.
 */
export class ConcurrentDispatch<M = Position> {
  private readonly lock = new KeyedLock();
  private readonly admitted: Admitted<M>[] = [];
  private head = 0;
  private inFlight = 0;
  private failure: { err: unknown } | null = null;
  private readonly capacityWaiters: (() => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  /** End of the handled prefix, and whether it has moved since the last save. */
  private prefix: M | null = null;
  private unsaved = false;
  private ignoredSinceSave = 0;
  private saving: Promise<void> | null = null;
  private lastSaveAt = 0;
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ConcurrentDispatchOptions<M>) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1)
      throw new Error(`concurrency must be ≥ 1, got ${options.concurrency}`);
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /**
   * Admits the next event, once fewer than `concurrency` are in flight; resolves when it is admitted, not handled.
   * `event` null: one the processor ignores, which only moves the checkpoint to `mark`. Throws the failure once one
   * happened: the caller stops feeding and starts again from the checkpoint.
   */
  async submit(mark: M, event: RecordedEvent | null): Promise<void> {
    const handles = event !== null;
    while (!this.failure && this.inFlight >= this.options.concurrency) {
      await new Promise<void>((resolve) => this.capacityWaiters.push(resolve));
    }
    if (this.failure) throw this.failure.err;
    const entry: Admitted<M> = { mark, done: !handles, handled: handles };
    this.admitted.push(entry);
    if (!handles) {
      this.ignoredSinceSave++;
      this.advance();
      return;
    }
    this.inFlight++;
    void this.lock
      .run(this.options.keyOf(event!), async () => {
        // Queued behind its key when a handler failed: left for the restart, like everything after the failure.
        if (this.failure) return false;
        try {
          await this.options.handle(event!);
        } catch (err) {
          // Known before the next event of this key starts, so that it does not.
          this.fail(err);
          throw err;
        }
        return true;
      })
      .then(
        (ran) => {
          if (!ran) return;
          entry.done = true;
          this.advance();
        },
        (err: unknown) => this.fail(err),
      )
      .finally(() => {
        this.inFlight--;
        this.capacityWaiters.shift()?.();
        if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
  }

  /**
   * Waits for every admitted event to end, then saves the handled prefix. After a failure it resolves too (the
   * failure was reported through `onFailure`): an owner settles before it reads the checkpoint to start again.
   */
  async settle(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    this.cancelTimer();
    await this.saving;
    if (this.unsaved && this.prefix !== null) {
      this.unsaved = false;
      await this.options.checkpoint(this.prefix).catch((err: unknown) => this.fail(err));
    }
  }

  private cancelTimer(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
  }

  private fail(err: unknown): void {
    if (this.failure) return;
    this.failure = { err };
    this.cancelTimer();
    for (const wake of this.capacityWaiters.splice(0)) wake();
    this.options.onFailure(err);
  }

  private advance(): void {
    let handled = false;
    while (this.head < this.admitted.length && this.admitted[this.head]!.done) {
      const entry = this.admitted[this.head++]!;
      this.prefix = entry.mark;
      this.unsaved = true;
      handled ||= entry.handled;
    }
    // Forget the handled prefix now and then rather than shifting the array at every event.
    if (this.head > 1024 && this.head * 2 > this.admitted.length) {
      this.admitted.splice(0, this.head);
      this.head = 0;
    }
    if (handled || this.ignoredSinceSave >= IGNORED_PER_SAVE) this.save();
  }

  /** One save at a time; positions that arrive meanwhile are coalesced into the next one. */
  private save(): void {
    if (this.saving || this.saveTimer || !this.unsaved || this.failure) return;
    const wait = this.lastSaveAt + (this.options.checkpointEveryMs ?? 0) - Date.now();
    if (wait > 0) {
      this.saveTimer = setTimeout(() => {
        this.saveTimer = null;
        this.save();
      }, wait);
      this.saveTimer.unref();
      return;
    }
    this.saving = (async () => {
      while (this.unsaved && this.prefix !== null && !this.failure) {
        const mark = this.prefix;
        this.unsaved = false;
        this.ignoredSinceSave = 0;
        this.lastSaveAt = Date.now();
        await this.options.checkpoint(mark);
        if (this.options.checkpointEveryMs) break;
      }
    })()
      .catch((err: unknown) => this.fail(err))
      .finally(() => {
        this.saving = null;
        // Positions that arrived during a spaced save wait for the next turn.
        if (this.options.checkpointEveryMs && this.unsaved) this.save();
      });
  }
}
