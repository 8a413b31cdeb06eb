import { type Notification, type Pool, type PoolClient } from 'pg';
import { pause } from '../retry/backoff';

const RETRY_MS = 500;

export interface ListenerHooks {
  /** A notification on one of the channels. */
  notification(channel: string, payload: string): void;
  /**
   * LISTEN holds again on a new connection: whatever was sent while nobody listened is lost, so what is kept from
   * the notifications must be read again from the tables (it is called after LISTEN, so nothing falls in between).
   */
  listening?(): Promise<void> | void;
  /** Every `listening` hook has caught up: from now on, what was heard is complete (`up`). */
  up?(): void;
  /** The connection is gone: until `listening` comes again, nothing heard can be trusted to be complete. */
  lost?(): void;
}

/**
 * One connection of this process LISTENing on a few channels. PostgreSQL delivers, in commit order, every
 * notification committed while the connection listens; when it breaks, LISTEN is issued again on a new one after a
 * pause, and the hooks are told both ways.
 */
export class NotificationListener {
  private client: PoolClient | null = null;
  private stopped = false;
  private readonly stop = new AbortController();
  private running: Promise<void> | null = null;
  private readonly hooks: ListenerHooks[] = [];
  /** Every `listening` hook ran on the connection that listens now. */
  private caughtUp = false;

  constructor(
    private readonly pool: Pool,
    private readonly channels: readonly string[],
  ) {}

  /** True while the connection listens and every `listening` hook has caught up. */
  get up(): boolean {
    return this.client !== null && this.caughtUp;
  }

  add(hooks: ListenerHooks): void {
    this.hooks.push(hooks);
  }

  /** Listens until `close`; resolves once the first LISTEN holds (or failed: it keeps trying in the background). */
  start(): Promise<void> {
    let first!: () => void;
    const firstDone = new Promise<void>((resolve) => (first = resolve));
    this.running = this.loop(first);
    return firstDone;
  }

  private async loop(first: () => void): Promise<void> {
    while (!this.stopped) {
      await this.listenOnce(first).catch(() => undefined);
      first();
      // A database that refuses connections is not hammered; meanwhile the hooks' owners fall back on SQL.
      await pause(RETRY_MS, this.stop.signal);
    }
  }

  /** Holds one connection until it breaks (or `close`). */
  private async listenOnce(first: () => void): Promise<void> {
    const client = await this.pool.connect();
    let release!: (err?: Error) => void;
    const ended = new Promise<void>((resolve) => {
      let held = true;
      release = (err?: Error) => {
        if (!held) return;
        held = false;
        if (this.client === client) {
          this.client = null;
          this.caughtUp = false;
          for (const h of this.hooks) h.lost?.();
        }
        // A broken connection is destroyed, not lent again.
        client.release(err ?? true);
        resolve();
      };
    });
    client.on('notification', (n: Notification) => {
      for (const h of this.hooks) h.notification(n.channel, n.payload ?? '');
    });
    client.on('error', (err) => release(err));
    client.on('end', () => release(new Error('notification connection ended')));
    this.stop.signal.addEventListener('abort', () => release(), { once: true });
    try {
      for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
      this.client = client;
      for (const h of this.hooks) await h.listening?.();
      if (this.client === client) {
        this.caughtUp = true;
        for (const h of this.hooks) h.up?.();
      }
      first();
    } catch (err) {
      release(err instanceof Error ? err : new Error(String(err)));
    }
    await ended;
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.stop.abort();
    await this.running;
  }
}
