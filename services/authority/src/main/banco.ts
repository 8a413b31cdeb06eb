import { type Pool } from 'pg';
import { createPool, migrate, platformMigrations, startEmbeddedPostgres } from '@frete/platform';

export interface Banco {
  pool: Pool;
  /** For the start banner: where the data is. */
  descricao: string;
  /** Ends the pool, then stops embedded PostgreSQL when this process started it. */
  close(): Promise<void>;
}

/**
 * The simulated authority's database: `DATABASE_URL`, or embedded PostgreSQL in `dataDir` as the server runs it. The
 * platform's migrations bring the authority's tables (and the platform's others, which it leaves alone).
 */
export async function abrirBanco(databaseUrl: string | null, dataDir: string): Promise<Banco> {
  const embutido = databaseUrl ? null : await startEmbeddedPostgres(dataDir, { database: 'autoridade' });
  const pool = createPool(databaseUrl ?? embutido!.connectionString(), 4);
  try {
    await migrate(pool, platformMigrations);
  } catch (error) {
    await pool.end();
    await embutido?.stop();
    throw error;
  }
  return {
    pool,
    descricao: databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL (${dataDir})`,
    close: async () => {
      await pool.end();
      await embutido?.stop();
    },
  };
}
