import path from 'node:path';
import { Client } from 'pg';
// Global setup runs outside jest's module map: import the dependency-free modules by path.
import { createPool } from '../../services/platform/src/db/pool';
import { migrate, platformMigrations } from '../../services/platform/src/db/migrate';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../services/platform/src/db/embedded';
import { readModelMigrations } from '../../projections/src/migrations';
import { startKafkaIfNeeded } from './kafka';

declare global {
  var __EMBEDDED_PG__: EmbeddedPostgres | undefined;
}

/**
 * One real PostgreSQL for the run: TEST_DATABASE_URL when given (any database on the server; we create our own),
 * otherwise embedded PostgreSQL from npm in .data/test-postgres. A migrated template database is cloned per test file.
 */
export default async function globalSetup(): Promise<void> {
  const kafka = startKafkaIfNeeded(); // in parallel with PostgreSQL; never rejects (sets KAFKA_SKIP_REASON instead)
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // A cluster of its own per run: concurrent runs must not stop each other's server.
    const dir = path.join(__dirname, '..', '..', '.data', 'test-postgres', `run-${process.pid}`);
    process.env.TEST_EMBEDDED_DIR = dir;
    // A throwaway cluster: nothing of it must survive a crash, so no commit waits for the disk.
    const pg = await startEmbeddedPostgres(dir, { database: 'postgres', durable: false });
    globalThis.__EMBEDDED_PG__ = pg;
    adminUrl = pg.connectionString('postgres');
    process.env.TEST_DATABASE_URL = adminUrl;
  }
  const template = `frete_tpl_${process.pid}`;
  process.env.TEST_RUN_ID = String(process.pid);
  process.env.TEST_TEMPLATE_DB = template;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const pool = createPool(url.toString(), 2);
  await migrate(pool, platformMigrations);
  await migrate(pool, readModelMigrations);
  await pool.end();
  await kafka;
}
