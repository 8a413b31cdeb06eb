import fs from 'node:fs';
import { Client } from 'pg';
import { stopKafkaIfStarted } from './kafka';

export default async function globalTeardown(): Promise<void> {
  await stopKafkaIfStarted();
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`, [
    `frete_t_${process.env.TEST_RUN_ID}_%`,
    process.env.TEST_TEMPLATE_DB,
  ]);
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  await admin.end();
  await globalThis.__EMBEDDED_PG__?.stop();
  if (process.env.TEST_EMBEDDED_DIR) fs.rmSync(process.env.TEST_EMBEDDED_DIR, { recursive: true, force: true });
}
