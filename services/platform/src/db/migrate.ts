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

/** Applies every pending migration of a set, under node-pg-migrate's advisory lock (safe with many processes). */
export async function migrate(pool: Pool, set: MigrationSet): Promise<void> {
  const client = await pool.connect();
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
    // The runner changes search_path on its connection: never hand that connection back to the pool.
    client.release(true);
  }
}
