/**
 * The one retry/backoff policy of the code base: attempts separated by pauses whose ceiling doubles from `baseMs` up
 * to `capMs`, with "full jitter" (a uniformly random pause below the ceiling) unless a caller needs the ceiling
 * itself. Written here rather than taken from `exponential-backoff`: that library draws from `Math.random` and
 * sleeps on its own timer, so its pauses can neither be made deterministic in tests nor cut short by a stop.
 */
export interface BackoffOptions {
  /** Attempts in all; without it, they go on until `signal` aborts (or the caller leaves the loop). */
  max?: number;
  /** Ceiling of the first pause (before attempt 2), in ms. */
  baseMs?: number;
  /** The ceiling stops doubling here, in ms. */
  capMs?: number;
  /**
   * `full` (default): writers that collided spread out instead of colliding again in step, which a fixed pause
   * makes them do until the budget is spent. `none`: the ceiling itself, for a lone poller or restarter.
   */
  jitter?: 'full' | 'none';
  /** Ends the retries: a pause under way returns at once and no attempt follows. */
  signal?: AbortSignal;
  /** Tests inject these to make the pauses deterministic. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_BACKOFF = { baseMs: 10, capMs: 1000 } as const;

const backoffCeilingMs = (retry: number, baseMs: number, capMs: number): number => Math.min(capMs, baseMs * 2 ** Math.max(0, retry - 1));

/** Pause before retry `attempt` (1 = the first retry) under full jitter. */
export function backoffDelayMs(
  attempt: number,
  random: () => number = () => Math.random(),
  baseMs: number = DEFAULT_BACKOFF.baseMs,
  capMs: number = DEFAULT_BACKOFF.capMs,
): number {
  return Math.floor(random() * backoffCeilingMs(attempt, baseMs, capMs));
}

/** Waits `ms`; an abort of `signal` ends the wait early (it resolves: the caller looks at the signal). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Counts a loop's attempts and waits the pause between them. The loop makes its first attempt at once (synchronously,
 * up to that attempt's first await) and asks `next()` before each further one:
 *
 *     const retries = new Backoff({ max: 12 });
 *     do { ... return when done ... } while (await retries.next());
 *     // out of attempts (or stopped): the caller decides what that means
 */
export class Backoff {
  /** The attempt under way, from 1. */
  attempt = 1;

  constructor(private readonly options: BackoffOptions = {}) {}

  /** Waits the pause before the next attempt and counts it; false, without waiting, when no attempt follows. */
  async next(): Promise<boolean> {
    const { max = Infinity, signal, baseMs = DEFAULT_BACKOFF.baseMs, capMs = DEFAULT_BACKOFF.capMs } = this.options;
    if (this.attempt >= max || signal?.aborted) return false;
    const ms =
      this.options.jitter === 'none'
        ? backoffCeilingMs(this.attempt, baseMs, capMs)
        : backoffDelayMs(this.attempt, this.options.random, baseMs, capMs);
    await (this.options.sleep ?? pause)(ms, signal);
    if (signal?.aborted) return false;
    this.attempt++;
    return true;
  }
}
