import { randomBytes } from 'node:crypto';
import { escapeIdentifier, escapeLiteral, type Pool, type PoolClient } from 'pg';

/** The group role the read-model migrations create (1700000001800_analistas): SELECT on the read models, nothing else. */
export const GRUPO_ANALISTAS = 'frete_analistas';
/** The group of one company's analysts (1700000001810_analistas-empresa): the same reads, through row-level security. */
export const GRUPO_ANALISTAS_EMPRESA = 'frete_analistas_empresa';
/** The role without privileges whose members are analysts of the company of that CNPJ (the policies read it). */
export const marcadorDaEmpresa = (cnpj: string): string => `frete_empresa_${cnpj}`;

/** An analyst's login role and where to connect with it. */
export interface PapelAnalista {
  papel: string;
  grupo: string;
  /** The company whose rows alone the role sees, or null for every company's. */
  company_id: string | null;
  connection_string: string;
  /** Whether the role existed (its password was rotated) or was created now. */
  senha_rotacionada: boolean;
}

/** Refused: the group is missing, the name is not a plain role name, or the role exists and is not an analyst's. */
export class PapelAnalistaError extends Error {}

const NOME = /^[a-z_][a-z0-9_]{0,62}$/;

/** What to create: the login role's name and, for one company's analyst, that company (its id or CNPJ). */
export interface PedidoPapelAnalista {
  nome: string;
  empresa?: string;
}

/** The groups a role is a direct member of. */
async function gruposDe(pool: Pool, nome: string): Promise<{ rolsuper: boolean; grupos: string[] } | undefined> {
  const { rows } = await pool.query<{ rolsuper: boolean; grupos: string[] }>(
    `SELECT r.rolsuper, ARRAY(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid) AS grupos
       FROM pg_roles r WHERE r.rolname = $1`,
    [nome],
  );
  return rows[0];
}

async function empresaDe(pool: Pool, empresa: string): Promise<{ company_id: string; cnpj: string }> {
  const digitos = empresa.replace(/[./-]/g, '');
  const { rows } = await pool.query<{ company_id: string; cnpj: string }>(
    'SELECT company_id, cnpj FROM rm.companies WHERE cnpj = $1 OR company_id = $2',
    [digitos, empresa],
  );
  if (!rows[0]) throw new PapelAnalistaError(`company '${empresa}' not found`);
  return rows[0];
}

/**
 * Creates the LOGIN role `nome` as a member of the analysts' group, or rotates its password, and gives the connection
 * string of `databaseUrl`'s server and database with that role. Its sessions are read-only by default as well. With a
 * company, the role is one company's analyst instead: it sees that company's rows only. A role of the same name that is
 * not already an analyst of the same kind (the service's own, a superuser, another company's) is never touched.
 */
export async function criarPapelAnalista(pool: Pool, databaseUrl: string, pedido: PedidoPapelAnalista): Promise<PapelAnalista> {
  const { nome } = pedido;
  if (!NOME.test(nome)) throw new PapelAnalistaError(`role name '${nome}' is not lower-case letters, digits and underscores`);
  const empresa = pedido.empresa === undefined ? null : await empresaDe(pool, pedido.empresa);
  const grupoDoPapel = empresa ? GRUPO_ANALISTAS_EMPRESA : GRUPO_ANALISTAS;
  const grupos = empresa ? [GRUPO_ANALISTAS_EMPRESA, marcadorDaEmpresa(empresa.cnpj)] : [GRUPO_ANALISTAS];
  const grupo = await pool.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [grupoDoPapel]);
  if (grupo.rowCount === 0) {
    throw new PapelAnalistaError(
      `role ${grupoDoPapel} does not exist: the read-model migrations ran as a user without CREATEROLE; create it as ` +
        `a superuser (CREATE ROLE ${grupoDoPapel} NOLOGIN) and run the service once more`,
    );
  }
  const existente = await gruposDe(pool, nome);
  // Exactly the groups this kind of analyst has: a general analyst made one company's would still see every row.
  const mesmoTipo = existente !== undefined && !existente.rolsuper && [...existente.grupos].sort().join() === [...grupos].sort().join();
  if (existente && !mesmoTipo) {
    throw new PapelAnalistaError(
      `role '${nome}' exists and is not ${empresa ? "this company's" : 'an'} analyst's role: choose another --name`,
    );
  }
  const senha = randomBytes(24).toString('base64url');
  const papel = escapeIdentifier(nome);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (empresa) await criarMarcador(client, marcadorDaEmpresa(empresa.cnpj));
    if (existente) await client.query(`ALTER ROLE ${papel} WITH LOGIN PASSWORD ${escapeLiteral(senha)}`);
    else {
      await client.query(
        `CREATE ROLE ${papel} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION INHERIT PASSWORD ${escapeLiteral(senha)} ` +
          `IN ROLE ${grupos.map(escapeIdentifier).join(', ')}`,
      );
    }
    // A second guard beside the grants: a session that forgets itself still cannot write.
    await client.query(`ALTER ROLE ${papel} SET default_transaction_read_only = on`);
    const banco = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
    await client.query(`GRANT CONNECT ON DATABASE ${escapeIdentifier(banco)} TO ${papel}`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  const url = new URL(databaseUrl);
  url.username = nome;
  url.password = senha;
  return {
    papel: nome,
    grupo: grupoDoPapel,
    company_id: empresa?.company_id ?? null,
    connection_string: url.toString(),
    senha_rotacionada: existente !== undefined,
  };
}

/** The company's marker role, once per cluster: another process may be creating it at the same moment. */
async function criarMarcador(client: PoolClient, marcador: string): Promise<void> {
  await client.query('SAVEPOINT marcador');
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [marcador]);
    if (rowCount === 0) await client.query(`CREATE ROLE ${escapeIdentifier(marcador)} NOLOGIN`);
    await client.query('RELEASE SAVEPOINT marcador');
  } catch (err) {
    await client.query('ROLLBACK TO SAVEPOINT marcador');
    // 42710 duplicate_object, 23505 unique_violation: created meanwhile, which is what was wanted.
    if (!['42710', '23505'].includes((err as { code?: string }).code ?? '')) throw err;
  }
}
