import { randomBytes } from 'node:crypto';
import { Client, type DatabaseError } from 'pg';
import { builtEntry, runNode } from '../support/processes';
import { freshDatabase, type TestDatabase } from '../support/db';
import { randomCnpj } from '../support/app';

// Each case starts Node processes of the operator tool (about 2 s each on two cores).
jest.setTimeout(180_000);

const entry = () => builtEntry('services/ops/dist/main.js');

/** Deployment-wide rows (no company's): readable by one company's analysts without a policy. */
const SEM_EMPRESA = ['contingencias'];

async function conectar(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

describe('pnpm ops analyst-role create --company (one company’s rows only, through row-level security)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const papeis: string[] = [];
  const empresas: { cnpj: string; id: string }[] = [];
  let analistaA: Client;
  let geral: Client;

  const ops = (...args: string[]) => runNode(entry(), args, env);
  async function papel(...args: string[]): Promise<{ papel: string; company_id: string | null; connection_string: string }> {
    const res = await ops('analyst-role', 'create', ...args);
    expect([res.code, res.stderr]).toEqual([0, '']);
    const criado = JSON.parse(res.stdout) as { papel: string; company_id: string | null; connection_string: string };
    papeis.push(criado.papel);
    return criado;
  }

  beforeAll(async () => {
    db = await freshDatabase();
    env = { DATABASE_URL: db.url, SECRETS_KEY: randomBytes(32).toString('base64'), APP_ENVIRONMENT: 'homologacao' };
    for (const nome of ['TRANSPORTES A LTDA', 'TRANSPORTES B LTDA', 'TRANSPORTES C LTDA']) {
      const cnpj = randomCnpj();
      const res = await ops('company', 'create', '--cnpj', cnpj, '--name', nome, '--carrier');
      expect(res.code).toBe(0);
      const id = (JSON.parse(res.stdout) as { company_id: string }).company_id;
      empresas.push({ cnpj, id });
      expect((await ops('credential', 'create', '--company', cnpj, '--kind', 'api-key')).code).toBe(0);
    }
    const [a, b, c] = empresas.map((e) => e.id);
    // Rows of tables whose company is reached through another column: a batch each, a grant between B and C.
    await db.pool.query(
      `INSERT INTO rm.lotes (batch_id, company_id, ambiente, modo, total_linhas, status, created_at, updated_at)
       VALUES ('lote-a', $1, 'homologacao', '1a1', 1, 'processing', now(), now()), ('lote-b', $2, 'homologacao', '1a1', 1, 'processing', now(), now())`,
      [a, b],
    );
    await db.pool.query(
      `INSERT INTO rm.lote_linhas (batch_id, linha, chave, status, tipo_servico, updated_at)
       VALUES ('lote-a', 0, repeat('1', 44), 'pending', 1, now()), ('lote-b', 0, repeat('2', 44), 'pending', 1, now())`,
    );
    await db.pool.query(
      `INSERT INTO rm.autorizacoes (autorizacao_id, subcontratada_id, subcontratada_cnpj, subcontratada_nome, contratante_id,
         contratante_cnpj, contratante_nome, status, concedida_em)
       VALUES ('aut-bc', $1, 'x', 'B', $2, 'y', 'C', 'ativa', now()), ('aut-ab', $3, 'z', 'A', $1, 'x', 'B', 'ativa', now())`,
      [b, c, a],
    );
    analistaA = await conectar(
      (await papel('--company', empresas[0]!.cnpj, '--name', `analista_a_${randomBytes(4).toString('hex')}`)).connection_string,
    );
    geral = await conectar((await papel('--name', `analista_g_${randomBytes(4).toString('hex')}`)).connection_string);
  });
  afterAll(async () => {
    await analistaA?.end();
    await geral?.end();
    await db.drop();
    const admin = await conectar(process.env.TEST_DATABASE_URL!);
    for (const p of papeis) await admin.query(`DROP ROLE IF EXISTS ${p}`);
    for (const e of empresas) await admin.query(`DROP ROLE IF EXISTS frete_empresa_${e.cnpj}`);
    await admin.end();
  });

  /** Tables of schema rm the role `papel` may read, and whether they have company_id. */
  async function legiveis(papel: string): Promise<{ tabela: string; company_id: boolean }[]> {
    const { rows } = await db.pool.query<{ tabela: string; company_id: boolean }>(
      `SELECT c.relname AS tabela, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id') AS company_id
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'rm' AND c.relkind IN ('r', 'v') AND has_any_column_privilege($1, c.oid, 'SELECT')
        ORDER BY 1`,
      [papel],
    );
    return rows;
  }

  it('sees its company’s rows and none of another company’s, in every read model it may read', async () => {
    const [a] = empresas.map((e) => e.id);
    const tabelas = await legiveis('frete_analistas_empresa');
    expect(tabelas.length).toBeGreaterThanOrEqual(28);
    for (const { tabela } of tabelas.filter((t) => t.company_id)) {
      const col = tabela === 'credentials' ? 'credential_id, company_id' : '*';
      const { rows } = await analistaA.query<{ company_id: string }>(`SELECT ${col} FROM rm.${tabela}`);
      expect([tabela, rows.filter((r) => r.company_id !== a).length]).toEqual([tabela, 0]);
    }
    expect((await analistaA.query('SELECT company_id FROM rm.companies')).rows).toEqual([{ company_id: a }]);
    expect((await analistaA.query('SELECT company_id FROM rm.credentials')).rows).toEqual([{ company_id: a }]);
    expect((await analistaA.query('SELECT company_id FROM rm.company_activity')).rows).toEqual([{ company_id: a }]);
    expect((await analistaA.query('SELECT batch_id FROM rm.lote_linhas')).rows).toEqual([{ batch_id: 'lote-a' }]);
    expect((await analistaA.query('SELECT autorizacao_id FROM rm.autorizacoes')).rows).toEqual([{ autorizacao_id: 'aut-ab' }]);
  });

  it('the general analyst and the projector (owner) still see every company', async () => {
    expect((await geral.query('SELECT count(*)::int AS n FROM rm.companies')).rows[0]).toEqual({ n: 3 });
    expect((await geral.query('SELECT count(*)::int AS n FROM rm.lote_linhas')).rows[0]).toEqual({ n: 2 });
    expect((await geral.query('SELECT count(*)::int AS n FROM rm.autorizacoes')).rows[0]).toEqual({ n: 2 });
    // The projector keeps writing after the policies: a new company is projected and read back.
    expect((await ops('company', 'create', '--cnpj', randomCnpj(), '--name', 'TRANSPORTES D LTDA')).code).toBe(0);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM rm.companies')).rows[0]).toEqual({ n: 4 });
    expect((await analistaA.query('SELECT count(*)::int AS n FROM rm.companies')).rows[0]).toEqual({ n: 1 });
  });

  it('cannot widen its view: SET ROLE to the general group is refused, to its own group changes nothing', async () => {
    const erro = await analistaA.query('SET ROLE frete_analistas').catch((err: DatabaseError) => err.code);
    expect(erro).toBe('42501');
    await analistaA.query('SET ROLE frete_analistas_empresa');
    expect((await analistaA.query('SELECT count(*)::int AS n FROM rm.companies')).rows[0]).toEqual({ n: 1 });
    await analistaA.query('RESET ROLE');
    const escrita = await analistaA.query(`BEGIN READ WRITE; DELETE FROM rm.companies`).catch((err: DatabaseError) => err.code);
    await analistaA.query('ROLLBACK');
    expect(escrita).toBe('42501');
  });

  it('every read model with company_id has its per-company policy; nothing else readable by one company’s analysts is unpoliced', async () => {
    const { rows } = await db.pool.query<{
      tabela: string;
      rls: boolean;
      politica: boolean;
      invoker: boolean;
      company_id: boolean;
      legivel: boolean;
    }>(
      `SELECT c.relname AS tabela, c.relrowsecurity AS rls,
              EXISTS (SELECT 1 FROM pg_policies p WHERE p.schemaname = 'rm' AND p.tablename = c.relname
                         AND 'frete_analistas_empresa' = ANY (p.roles)) AS politica,
              coalesce('security_invoker=true' = ANY (c.reloptions), false) AS invoker,
              EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id') AS company_id,
              has_any_column_privilege('frete_analistas_empresa', c.oid, 'SELECT') AS legivel
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'rm' AND c.relkind IN ('r', 'v')`,
    );
    const esquecidas = rows.filter((r) => r.company_id && !(r.legivel && ((r.rls && r.politica) || r.invoker))).map((r) => r.tabela);
    expect(esquecidas).toEqual([]);
    const abertas = rows
      .filter((r) => r.legivel && !(r.rls && r.politica) && !r.invoker && !SEM_EMPRESA.includes(r.tabela))
      .map((r) => r.tabela);
    expect(abertas).toEqual([]);
  });

  it('refuses an unknown company, and a general analyst role as one company’s (it would see every row)', async () => {
    const desconhecida = await ops('analyst-role', 'create', '--company', randomCnpj());
    expect(desconhecida.code).toBe(1);
    expect(JSON.parse(desconhecida.stderr).error).toMatchObject({ code: 'papel_analista', message: expect.stringMatching(/not found/) });
    const misturado = await ops('analyst-role', 'create', '--company', empresas[0]!.cnpj, '--name', papeis[1]!);
    expect(misturado.code).toBe(1);
    expect(JSON.parse(misturado.stderr).error.code).toBe('papel_analista');
  });
});
