import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { type Pool } from 'pg';
import { createPool, MIGRATION_LOCK, migrate, platformMigrations } from '@frete/platform';
import { readModelMigrations } from '@frete/projections';
import { emptyDatabase } from '../support/db';
import { builtEntry, startUntil, stopProcess } from '../support/processes';
import { request } from '../support/http';
import { portaLivre } from '../support/frota';

const migrationFiles = (dir: string) => fs.readdirSync(dir).filter((f) => !f.startsWith('.') && !f.endsWith('.md')).length;

async function applied(pool: Pool, table: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]!.n);
}

/** Issue 17: processes started together on one new database raced on migrations; the second died. */
describe('migrations of processes started together', () => {
  it('four at once on an empty database all succeed, and the schema is complete once', async () => {
    const db = await emptyDatabase();
    const pools = Array.from({ length: 4 }, () => createPool(db.url, 2));
    try {
      // As startPlatform and ProjectionRunner.prepare do in each process: the platform set, then the read models'.
      const results = await Promise.allSettled(
        pools.map(async (pool) => {
          await migrate(pool, platformMigrations);
          await migrate(pool, readModelMigrations);
        }),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const pool = pools[0]!;
      expect(await applied(pool, 'public.pgmigrations_platform')).toBe(migrationFiles(platformMigrations.dir));
      expect(await applied(pool, `${readModelMigrations.schema}.${readModelMigrations.table}`)).toBe(
        migrationFiles(readModelMigrations.dir),
      );
      // Nothing is left holding a lock.
      const { rows } = await pool.query(
        `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(rows).toEqual([]);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
      await db.drop();
    }
  }, 120_000);

  it('two API processes and a projector started together on an empty database all become ready', async () => {
    const db = await emptyDatabase();
    const env = {
      DATABASE_URL: db.url,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      SERVICES: 'api',
      PORT: '0',
      KAFKA_BROKERS: '',
      EVENTSTORE_URL: '',
      APP_ENVIRONMENT: 'homologacao',
    };
    const entry = builtEntry('services/server/dist/main.js');
    // The projector has no API: its probes are on the ops server (METRICS_PORT).
    const started = await Promise.allSettled([
      startUntil(entry, env, /API: (http:\/\/[^\s]+)\/v1/, 120_000),
      startUntil(entry, env, /API: (http:\/\/[^\s]+)\/v1/, 120_000),
      startUntil(entry, { ...env, SERVICES: 'projector', METRICS_PORT: '0' }, /ops: (http:\/\/[^\s]+)/, 120_000),
    ]);
    try {
      expect(started.filter((s) => s.status === 'rejected')).toEqual([]);
      for (const s of started) {
        if (s.status !== 'fulfilled') continue;
        const res = await request(`${s.value.match[1]}/health/ready`, 'GET');
        expect({ status: res.status, body: res.body.status }).toEqual({ status: 200, body: 'ready' });
      }
    } finally {
      for (const s of started) if (s.status === 'fulfilled') await stopProcess(s.value.child);
      await db.drop();
    }
  }, 180_000);

  it('a process waiting for the migrations answers live, and ready only once it has migrated and started', async () => {
    const db = await emptyDatabase();
    const holder = createPool(db.url, 1);
    const lock = await holder.connect();
    await lock.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    const port = await portaLivre();
    const ops = `http://127.0.0.1:${port}`;
    const entry = builtEntry('services/server/dist/main.js');
    const env = {
      DATABASE_URL: db.url,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      SERVICES: 'projector',
      METRICS_PORT: String(port),
      KAFKA_BROKERS: '',
      EVENTSTORE_URL: '',
      APP_ENVIRONMENT: 'homologacao',
    };
    const starting = startUntil(entry, env, /ops: (http:\/\/[^\s]+)/, 120_000);
    let released = false;
    try {
      // Another process holds the migrations' lock: this one waits on it, live and not ready.
      let live = await request(`${ops}/health/live`, 'GET').catch(() => null);
      for (let i = 0; i < 600 && live?.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        live = await request(`${ops}/health/live`, 'GET').catch(() => null);
      }
      expect(live?.status).toBe(200);
      const waiting = await request(`${ops}/health/ready`, 'GET');
      expect({ status: waiting.status, body: waiting.body }).toEqual({
        status: 503,
        body: { status: 'not_ready', checks: { started: { ok: false, detail: 'starting: migrations and services' } } },
      });
      const { rows } = await lock.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'es_events'`);
      expect(rows[0]!.n).toBe(0);

      await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
      released = true;
      const run = await starting;
      expect(run.match[1]).toBe(ops);
      const ready = await request(`${ops}/health/ready`, 'GET');
      expect({ status: ready.status, body: ready.body.status }).toEqual({ status: 200, body: 'ready' });
      await stopProcess(run.child);
    } finally {
      if (!released) await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
      lock.release();
      await holder.end();
      await starting.then((r) => stopProcess(r.child)).catch(() => undefined);
      await db.drop();
    }
  }, 180_000);
});
