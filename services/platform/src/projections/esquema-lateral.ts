import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Pool } from 'pg';
import { type Sql, readModelMigrations } from '@frete/projections';

/** The live read models' schema, as the projectors and migrations name it. */
export const ESQUEMA_VIVO = 'rm';

/** Every side schema starts with this, so that one a killed run left behind is easy to recognize (and drop). */
export const PREFIXO_ESQUEMA_LATERAL = 'rm_verificacao_';

/** The side schema an online rebuild fills, and swaps in for the live one. */
export const PREFIXO_RECONSTRUCAO = 'rm_reconstrucao_';

/** The live schema's name between the swap and its drop (one transaction: no other session ever sees it). */
export const PREFIXO_ESQUEMA_ANTIGO = 'rm_antigo_';

/** A fresh side schema's name: random, so that two verifications (or rebuilds) at once never share one. */
export const novoEsquemaLateral = (prefixo = PREFIXO_ESQUEMA_LATERAL): string => `${prefixo}${randomBytes(6).toString('hex')}`;

const QUALIFICADOR_VIVO = new RegExp(`\\b${ESQUEMA_VIVO}\\.`, 'g');

/**
 * Points projector and migration SQL at a side schema by rewriting the `rm.` qualifier. Not search_path: every
 * projector and migration names its tables fully qualified (`rm.companies`), which search_path never redirects, and
 * that same rule is why the rewrite is complete: a projector cannot reach a read-model table without writing `rm.`
 * (no connection's search_path has `rm`), so none of its statements can touch a live table.
 */
export function noEsquema(sql: Sql, esquema: string): Sql {
  return { query: (text, params) => sql.query(text.replace(QUALIFICADOR_VIVO, `${esquema}.`), params) };
}

/** The up part of a node-pg-migrate SQL migration. */
const subida = (texto: string): string => texto.split(/^-- Down Migration/m)[0]!;

/**
 * Creates the side schema with the read-model tables, from the same migration files as the live ones (their up
 * parts, in order, in one transaction). Only SQL migrations are read: another kind would be a change this must follow.
 */
/** Returns the migrations applied, by name (the file name without extension, as node-pg-migrate records them). */
export async function criarEsquemaLateral(pool: Pool, esquema: string): Promise<string[]> {
  const arquivos = (await readdir(readModelMigrations.dir)).filter((f) => !f.startsWith('.') && !f.endsWith('.md')).sort();
  const estranho = arquivos.find((f) => !f.endsWith('.sql'));
  if (estranho) throw new Error(`read-model migration ${estranho} is not SQL: the verifier cannot apply it to a side schema`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`CREATE SCHEMA ${esquema}`);
    // As node-pg-migrate runs them (search_path = the schema): an unqualified name lands beside the tables.
    await client.query(`SET LOCAL search_path TO ${esquema}`);
    // node-pg-migrate's bookkeeping table, as it creates it: migrations grant and comment on it (it is not compared).
    await client.query(
      `CREATE TABLE ${esquema}.${readModelMigrations.table} (id serial PRIMARY KEY, name varchar(255) NOT NULL, run_on timestamp NOT NULL)`,
    );
    const sql = noEsquema(client, esquema);
    for (const arquivo of arquivos) await sql.query(subida(await readFile(path.join(readModelMigrations.dir, arquivo), 'utf8')));
    await client.query('COMMIT');
    return arquivos.map((f) => f.replace(/\.sql$/, ''));
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export async function removerEsquemaLateral(pool: Pool, esquema: string): Promise<void> {
  if (!esquema.startsWith(PREFIXO_ESQUEMA_LATERAL) && !esquema.startsWith(PREFIXO_RECONSTRUCAO))
    throw new Error(`'${esquema}' is not a side schema of the verifier or of a rebuild`);
  await pool.query(`DROP SCHEMA IF EXISTS ${esquema} CASCADE`);
}
