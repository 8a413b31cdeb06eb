import { randomBytes } from 'node:crypto';
import { builtEntry, runNode } from '../support/processes';
import { freshDatabase, type TestDatabase } from '../support/db';
import { randomCnpj } from '../support/app';

jest.setTimeout(120_000);

/** `pnpm ops certificate sandbox`: a test A1 for any company, through the upload's checks, in the sandbox only. */
describe('pnpm ops certificate sandbox', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const ops = (extra: Record<string, string>, ...args: string[]) =>
    runNode(builtEntry('services/ops/dist/main.js'), args, { ...env, ...extra });
  beforeAll(async () => {
    db = await freshDatabase();
    env = { DATABASE_URL: db.url, SECRETS_KEY: randomBytes(32).toString('base64'), APP_ENVIRONMENT: 'homologacao' };
  });
  afterAll(() => db.drop());

  const certificadosNoLog = async (companyId: string) =>
    (
      await db.pool.query<{ type: string; data: { cnpj: string; nome_arquivo: string; emissor: string } }>(
        `SELECT event_type AS type, data FROM es_events WHERE stream_id = $1 ORDER BY stream_revision`,
        [`certificado-${companyId}`],
      )
    ).rows;

  it('makes and sends one for the company (masked CNPJ too), printing JSON; a second replaces the first', async () => {
    const cnpj = randomCnpj();
    const created = await ops(
      {},
      'company',
      'create',
      '--cnpj',
      cnpj,
      '--name',
      'TRANSPORTES CERTIFICADO LTDA',
      '--carrier',
      '--fiscal-ready',
    );
    expect(created.code).toBe(0);
    const companyId = JSON.parse(created.stdout).company_id as string;

    const made = await ops({}, 'certificate', 'sandbox', '--company', cnpj);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toEqual({
      company_id: companyId,
      cnpj,
      nome_arquivo: `teste-homologacao-${cnpj}.pfx`,
      ambiente: 'homologacao',
    });
    const masked = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
    expect((await ops({}, 'certificate', 'sandbox', '--company', masked)).code).toBe(0);

    const events = await certificadosNoLog(companyId);
    expect(events.map((e) => e.type)).toEqual(['certificado.enviado', 'certificado.enviado']);
    expect(events[0]!.data).toMatchObject({
      cnpj,
      nome_arquivo: `teste-homologacao-${cnpj}.pfx`,
      emissor: `TRANSPORTES CERTIFICADO LTDA:${cnpj}`,
    });
    // Only the last one stays sealed.
    const blobs = await db.pool.query(`SELECT count(*)::int AS n FROM secure_blobs WHERE company_id = $1`, [companyId]);
    expect(blobs.rows[0].n).toBe(1);
  });

  it('exit 1 with nao_encontrado for a company that does not exist', async () => {
    const missing = await ops({}, 'certificate', 'sandbox', '--company', randomCnpj());
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(missing.stderr).error.code).toBe('nao_encontrado');
  });

  it('outside the sandbox: exit 1 with homologacao_obrigatoria, nothing written, whatever the company', async () => {
    const cnpj = randomCnpj();
    const created = await ops({}, 'company', 'create', '--cnpj', cnpj, '--name', 'TRANSPORTES PRODUCAO LTDA', '--carrier');
    const companyId = JSON.parse(created.stdout).company_id as string;
    for (const company of [cnpj, randomCnpj()]) {
      const refused = await ops({ APP_ENVIRONMENT: 'producao' }, 'certificate', 'sandbox', '--company', company);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      const { error } = JSON.parse(refused.stderr);
      expect(error.code).toBe('homologacao_obrigatoria');
      expect(error.message).toContain("only in the sandbox (APP_ENVIRONMENT=homologacao), not in 'producao'");
    }
    expect(await certificadosNoLog(companyId)).toEqual([]);
  });

  it('exit 2 with uso without --company', async () => {
    const bad = await ops({}, 'certificate', 'sandbox');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error).toMatchObject({ code: 'uso', message: expect.stringContaining('--company is required') });
  });
});
