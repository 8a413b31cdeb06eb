import { randomBytes } from 'node:crypto';
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, type DatabaseError } from 'pg';
import { lerCatalogo } from '@frete/projections';
import { builtEntry, ROOT, runNode, semConfiguracao, startUntil, stopProcess } from '../support/processes';
import { freshDatabase, type TestDatabase } from '../support/db';
import { randomCnpj } from '../support/app';

// Each case starts Node processes of the operator tool (about 2 s each on two cores), one an embedded PostgreSQL.
jest.setTimeout(180_000);

const entry = () => builtEntry('services/ops/dist/main.js');
const nomeDePapel = () => `analista_t_${randomBytes(5).toString('hex')}`;

/** The SQLSTATE a statement fails with, or null when it succeeds. */
async function falha(client: Client, sql: string): Promise<string | null> {
  try {
    await client.query(sql);
    return null;
  } catch (err) {
    return (err as DatabaseError).code ?? 'sem código';
  }
}

async function conectar(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

async function dropRole(adminUrl: string, papel: string): Promise<void> {
  const admin = await conectar(adminUrl);
  await admin.query(`DROP ROLE IF EXISTS ${papel}`);
  await admin.end();
}

describe('pnpm ops analyst-role create (read-only PostgreSQL role over the read models)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const papel = nomeDePapel();
  let analista: Client;
  let conexao: string;
  beforeAll(async () => {
    db = await freshDatabase();
    env = { DATABASE_URL: db.url, SECRETS_KEY: randomBytes(32).toString('base64'), APP_ENVIRONMENT: 'homologacao' };
    const company = await runNode(entry(), ['company', 'create', '--cnpj', randomCnpj(), '--name', 'TRANSPORTES ANALISE LTDA'], env);
    expect(company.code).toBe(0);
    await runNode(entry(), ['credential', 'create', '--company', JSON.parse(company.stdout).company_id, '--kind', 'api-key'], env);
    const res = await runNode(entry(), ['analyst-role', 'create', '--name', papel], env);
    expect(res.code).toBe(0);
    const criado = JSON.parse(res.stdout) as { papel: string; grupo: string; connection_string: string; senha_rotacionada: boolean };
    expect(criado).toMatchObject({ papel, grupo: 'frete_analistas', senha_rotacionada: false });
    conexao = criado.connection_string;
    const url = new URL(conexao);
    const servidor = new URL(db.url);
    expect([url.username, url.hostname, url.port, url.pathname]).toEqual([papel, servidor.hostname, servidor.port, servidor.pathname]);
    expect(url.password.length).toBeGreaterThanOrEqual(32);
    analista = await conectar(conexao);
  });
  afterAll(async () => {
    await analista?.end();
    await db.drop();
    await dropRole(process.env.TEST_DATABASE_URL!, papel);
  });

  it('connects as its own role and reads every read model the catalogue marks readable', async () => {
    const { rows } = await analista.query<{ u: string }>('SELECT current_user AS u');
    expect(rows[0]!.u).toBe(papel);
    const legiveis = (await lerCatalogo(db.pool)).filter((t) => t.legivel && t.tabela !== 'credentials');
    expect(legiveis.length).toBeGreaterThanOrEqual(28);
    for (const t of legiveis) await analista.query(`SELECT * FROM rm.${t.tabela} LIMIT 1`);
    const companies = await analista.query<{ razao_social: string }>('SELECT razao_social FROM rm.companies');
    expect(companies.rows.map((r) => r.razao_social)).toEqual(['TRANSPORTES ANALISE LTDA']);
  });

  it('runs the queries of the README section for analysts', async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const secao = readme.slice(readme.indexOf('## Para analistas'), readme.indexOf('\n## ', readme.indexOf('## Para analistas') + 1));
    const consultas = [...secao.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(consultas).toHaveLength(3);
    for (const sql of consultas) await analista.query(sql);
  });

  it('reads credentials without their secret hash', async () => {
    const { rows } = await analista.query('SELECT credential_id, kind, hint, status FROM rm.credentials');
    expect(rows).toHaveLength(1);
    expect(await falha(analista, 'SELECT secret_sha256 FROM rm.credentials')).toBe('42501');
    expect(await falha(analista, 'SELECT * FROM rm.credentials')).toBe('42501');
  });

  it('is read-only by default, and the grants refuse every write even in a read-write transaction', async () => {
    expect((await analista.query('SHOW default_transaction_read_only')).rows[0]).toEqual({ default_transaction_read_only: 'on' });
    expect(await falha(analista, `UPDATE rm.companies SET razao_social = 'X'`)).toBe('25006');
    const escritas = [
      `INSERT INTO rm.companies VALUES ('c', '1', 'x', true, true, true, now(), now())`,
      `UPDATE rm.companies SET razao_social = 'X'`,
      'DELETE FROM rm.companies',
      'TRUNCATE rm.companies',
      'CREATE TABLE rm.do_analista (x int)',
      'CREATE TABLE public.do_analista (x int)',
      'DROP TABLE rm.companies',
      'ALTER TABLE rm.companies ADD COLUMN x int',
    ];
    for (const sql of escritas) {
      await analista.query('BEGIN READ WRITE');
      expect([sql, await falha(analista, sql)]).toEqual([sql, '42501']);
      await analista.query('ROLLBACK');
    }
  });

  it('cannot read the event store, the secrets, the documents or the projection bookkeeping', async () => {
    for (const tabela of [
      'es_events',
      'es_streams',
      'secure_blobs',
      'signing_keys',
      'documents',
      'rm.projection_checkpoint',
      'rm.pgmigrations_rm',
    ]) {
      expect([tabela, await falha(analista, `SELECT 1 FROM ${tabela} LIMIT 1`)]).toEqual([tabela, '42501']);
    }
  });

  it('rotates the password of an existing analyst role: a new password, and its connection string works', async () => {
    const res = await runNode(entry(), ['analyst-role', 'create', '--name', papel], env);
    expect(res.code).toBe(0);
    const rotacionado = JSON.parse(res.stdout) as { connection_string: string; senha_rotacionada: boolean };
    expect(rotacionado.senha_rotacionada).toBe(true);
    expect(new URL(rotacionado.connection_string).password).not.toBe(new URL(conexao).password);
    const novo = await conectar(rotacionado.connection_string);
    await novo.query('SELECT count(*) FROM rm.companies');
    await novo.end();
  });

  it('refuses to touch a role that is not an analyst role, and a name that is not a plain role name', async () => {
    const superuser = await runNode(entry(), ['analyst-role', 'create', '--name', 'postgres'], env);
    expect(superuser.code).toBe(1);
    expect(JSON.parse(superuser.stderr).error).toMatchObject({
      code: 'papel_analista',
      message: expect.stringMatching(/^role 'postgres' exists/),
    });
    const hostil = await runNode(entry(), ['analyst-role', 'create', '--name', 'x"; DROP ROLE postgres; --'], env);
    expect(hostil.code).toBe(1);
    expect(JSON.parse(hostil.stderr).error.code).toBe('papel_analista');
  });
});

describe('pnpm ops analyst-role create beside the service on embedded PostgreSQL (password authentication)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-analistas-'));
  const env = semConfiguracao(dataDir);
  let servico: ChildProcess | null = null;
  afterAll(async () => {
    if (servico) await stopProcess(servico);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints a connection string to the port the embedded server listens on, and only its password opens it', async () => {
    servico = (await startUntil(builtEntry('services/server/dist/main.js'), env, /API: http/, 120_000)).child;
    const { port } = JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as { port: number };
    const res = await runNode(entry(), ['analyst-role', 'create'], env);
    expect([res.code, res.stderr]).toEqual([0, `ops: database: embedded PostgreSQL in ${dataDir}, of the service running on it\n`]);
    const { connection_string, papel } = JSON.parse(res.stdout) as { connection_string: string; papel: string };
    expect(papel).toBe('frete_analista');
    const url = new URL(connection_string);
    expect([url.hostname, url.port, url.pathname]).toEqual(['127.0.0.1', String(port), '/frete']);
    const analista = await conectar(connection_string);
    expect((await analista.query<{ n: number }>('SELECT count(*)::int AS n FROM rm.companies')).rows[0]!.n).toBeGreaterThan(0);
    expect(await falha(analista, 'SELECT 1 FROM es_events')).toBe('42501');
    await analista.end();
    url.password = 'errada';
    await expect(conectar(url.toString())).rejects.toMatchObject({ code: '28P01' });
  });
});
