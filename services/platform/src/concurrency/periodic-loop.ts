/**
 * A job run again `intervalMs` after the previous run ends (never at a fixed rate), so two runs never
 * overlap however long one takes. A run's failure goes to `onError` and the loop goes on: a schedule that stopped at
 * its first database hiccup would stop quietly. `stop` waits for the run in flight, so that a shutdown closes the pool
 * only after it.
 */
export class PeriodicLoop {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private running: Promise<void> | null = null;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError?: (err: unknown) => void,
  ) {}

  /** The first run is on the next turn of the timers, not within `start`. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.run()
        .then(() => undefined)
        .catch((err: unknown) => this.onError?.(err))
        .finally(() => {
          this.running = null;
          this.schedule(this.intervalMs);
        });
    }, ms);
  }
}
