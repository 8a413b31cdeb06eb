import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPool, migrate, startEmbeddedPostgres, type EmbeddedPostgres } from '@frete/platform';
import { catalogoEmMarkdown, lerCatalogo, readModelMigrations } from '@frete/projections';

/** Where the catalogue is kept in the repository. */
export const CATALOGO = path.join(__dirname, '..', '..', '..', 'docs', 'catalogo-read-models.md');

/** The catalogue of a freshly migrated database on the server of `adminUrl`: a database of its own, dropped after. */
export async function gerarCatalogo(adminUrl: string): Promise<string> {
  const nome = `frete_catalogo_${process.pid}_${Date.now().toString(36)}`;
  const admin = createPool(adminUrl, 1);
  try {
    await admin.query(`CREATE DATABASE ${nome}`);
    const url = new URL(adminUrl);
    url.pathname = `/${nome}`;
    const pool = createPool(url.toString(), 2);
    try {
      await migrate(pool, readModelMigrations);
      return catalogoEmMarkdown(await lerCatalogo(pool));
    } finally {
      await pool.end();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${nome} WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * `pnpm catalogo`: writes docs/catalogo-read-models.md from the migrations' comments. The server is CATALOGO_DATABASE_URL,
 * DATABASE_URL or TEST_DATABASE_URL (any database of it: a new one is created and dropped), else embedded PostgreSQL in a
 * temporary folder.
 */
async function main(): Promise<void> {
  const url = process.env.CATALOGO_DATABASE_URL ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  let embedded: EmbeddedPostgres | null = null;
  let pasta: string | null = null;
  try {
    let adminUrl = url;
    if (!adminUrl) {
      pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-catalogo-'));
      embedded = await startEmbeddedPostgres(pasta, { database: 'postgres' });
      adminUrl = embedded.connectionString('postgres');
    }
    fs.writeFileSync(CATALOGO, await gerarCatalogo(adminUrl));
    console.log(CATALOGO);
  } finally {
    await embedded?.stop();
    if (pasta) fs.rmSync(pasta, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
