import path from 'node:path';
import { type Pool } from 'pg';
import { runner } from 'node-pg-migrate';

/** Platform tables: event store, checkpoints, watermarks, documents, secrets, signing keys. */
export const PLATFORM_MIGRATIONS = path.join(__dirname, '..', '..', 'migrations');

export interface MigrationSet {
  dir: string;
  table: string;
  schema: string;
}

export const platformMigrations: MigrationSet = { dir: PLATFORM_MIGRATIONS, table: 'pgmigrations_platform', schema: 'public' };

/**
 * The advisory lock every migration set of every process takes. node-pg-migrate's own lock is a try-lock: a second
 * process started at the same moment failed with "Another migration is already running". This one waits instead, and
 * the waiting process then finds nothing left to apply.
 */
export const MIGRATION_LOCK = "hashtext('frete-fiscal:migrations')";

/** Applies every pending migration of a set, one process at a time (the others wait for the lock, then skip). */
export async function migrate(pool: Pool, set: MigrationSet): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await runner({
        dbClient: client,
        dir: set.dir,
        migrationsTable: set.table,
        migrationsSchema: set.schema,
        schema: set.schema,
        createSchema: true,
        createMigrationsSchema: true,
        direction: 'up',
        count: Infinity,
        checkOrder: true,
        log: () => undefined,
        ignorePattern: '(\\..*)|(.*\\.md)',
      });
    } finally {
      // A broken connection cannot unlock; destroying it below ends its session, which releases the lock anyway.
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    }
  } finally {
    // The runner changes search_path on its connection: never hand that connection back to the pool.
    client.release(true);
  }
}
