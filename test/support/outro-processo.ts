import { type Pool } from 'pg';
import { Operator } from '@frete/application';
import { type AppConfig, createPool, type Platform, startPlatform, WATERMARK_CHANNEL } from '@frete/platform';
import { type TestApp } from './app';

/**
 * Another copy of the service on the test app's database, as a second API process would be: its own memory (read
 * models' checkpoint, watermarks, credentials), its own listener and runner, its own operator.
 */
export async function outroProcesso(
  app: TestApp,
  config: Partial<AppConfig> = {},
): Promise<{ platform: Platform; operator: Operator; close(): Promise<void> }> {
  const pool: Pool = createPool(app.db.url);
  const platform = await startPlatform({ ...app.config, ...config }, { pool });
  return {
    platform,
    operator: new Operator(platform.store, platform.pool, platform.projections, platform.config.environment),
    close: async () => {
      await platform.close();
      await pool.end();
    },
  };
}

/** Resolves on the first notification `platform` hears on `channel` that `match` accepts; register it before the act. */
export function ouvir(platform: Platform, channel: string, match: (payload: string) => boolean = () => true): Promise<void> {
  return new Promise((resolve) =>
    platform.notifications.add({
      notification: (c, payload) => {
        if (c === channel && match(payload)) resolve();
      },
    }),
  );
}

/** Resolves when `platform` loses its listening connection (`perdeu`) or listens again, caught up (`voltou`). */
export function quandoOuvinte(platform: Platform, evento: 'perdeu' | 'voltou'): Promise<void> {
  return new Promise((resolve) =>
    platform.notifications.add({ notification: () => undefined, ...(evento === 'perdeu' ? { lost: resolve } : { up: resolve }) }),
  );
}

/** Ends the listening connection of every process on the database (each comes back by itself after a pause). */
export async function derrubarOuvintes(pool: Pool): Promise<void> {
  await pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = $1`,
    [`LISTEN ${WATERMARK_CHANNEL}`],
  );
}

/**
 * The statements run on `pool` whose text matches `pattern`, from now until `parar` (the pool's own `query`, which the
 * authenticator and read-your-writes use: `readPool` and `pool`).
 */
export function espiarSql(pool: Pool, pattern: RegExp): { vistos: string[]; parar(): void } {
  const original = pool.query.bind(pool) as (...a: unknown[]) => unknown;
  const vistos: string[] = [];
  (pool as unknown as { query: unknown }).query = (...a: unknown[]) => {
    const text = typeof a[0] === 'string' ? a[0] : (a[0] as { text?: string } | undefined)?.text;
    if (text && pattern.test(text)) vistos.push(text);
    return original(...a);
  };
  return {
    vistos,
    parar: () => {
      (pool as unknown as { query: unknown }).query = original;
    },
  };
}
