import { randomBytes } from 'node:crypto';
import { builtEntry, runNode } from '../support/processes';
import { freshDatabase, type TestDatabase } from '../support/db';
import { randomCnpj, request, startTestApp, type TestApp } from '../support/app';

// Each case starts several Node processes (about 2 s each on two cores): give them room on a loaded machine.
jest.setTimeout(120_000);

describe('pnpm ops (operator tool)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let ops: (...args: string[]) => ReturnType<typeof runNode>;
  beforeAll(async () => {
    db = await freshDatabase();
    env = { DATABASE_URL: db.url, SECRETS_KEY: randomBytes(32).toString('base64'), APP_ENVIRONMENT: 'homologacao' };
    const entry = builtEntry('services/ops/dist/main.js');
    ops = (...args) => runNode(entry, args, env);
  });
  afterAll(() => db.drop());

  it('creates companies and credentials, printing JSON, and the credentials work against the API', async () => {
    const cnpj = randomCnpj();
    const created = await ops('company', 'create', '--cnpj', cnpj, '--name', 'TRANSPORTES OPS LTDA', '--carrier', '--fiscal-ready');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      cnpj,
      razao_social: 'TRANSPORTES OPS LTDA',
      carrier: true,
      fiscal_ready: true,
      fiscal_production: false,
    });

    const none = JSON.parse((await ops('credential', 'create', '--company', cnpj, '--kind', 'api-key')).stdout);
    expect(none).toMatchObject({ kind: 'api-key', scopes: [] });
    const key = JSON.parse(
      (await ops('credential', 'create', '--company', cnpj, '--kind', 'api-key', '--scopes', 'fiscal,consultas')).stdout,
    );
    expect(key.api_key).toMatch(/^fk_hml_/);
    const oauth = JSON.parse((await ops('credential', 'create', '--company', cnpj, '--kind', 'oauth', '--scopes', 'operacao')).stdout);
    expect(oauth).toMatchObject({
      kind: 'oauth',
      client_id: expect.stringMatching(/^cli_hml_/),
      client_secret: expect.stringMatching(/^cs_/),
    });

    const listed = JSON.parse((await ops('credential', 'list', '--company', cnpj)).stdout);
    expect(listed).toHaveLength(3);
    expect(JSON.stringify(listed)).not.toContain(key.api_key);
    expect(JSON.stringify(listed)).not.toContain(oauth.client_secret);

    // The running service works on the same data.
    const app: TestApp = await startTestApp({ DATABASE_URL: db.url, SECRETS_KEY: env.SECRETS_KEY! });
    try {
      const ok = await request(`${app.url}/v1/fiscal/status`, 'GET', undefined, { authorization: `Bearer ${key.api_key}` });
      expect(ok.status).toBe(200);
      expect(ok.body.data.empresa.cnpj).toBe(cnpj);
      const revoked = await ops('credential', 'revoke', '--id', key.credential_id);
      expect(JSON.parse(revoked.stdout)).toEqual({ credential_id: key.credential_id, revoked: true });
      const after = await request(`${app.url}/v1/fiscal/status`, 'GET', undefined, { authorization: `Bearer ${key.api_key}` });
      expect(after.status).toBe(401);
      const prod = JSON.parse((await ops('company', 'update', '--company', cnpj, '--fiscal-production=true')).stdout);
      expect(prod.fiscal_production).toBe(true);
      const companies = JSON.parse((await ops('company', 'list')).stdout);
      expect(companies.map((c: { cnpj: string }) => c.cnpj)).toContain(cnpj);
    } finally {
      await app.running.stop();
    }
  });

  it('answers usage errors and refusals as JSON with a non-zero exit', async () => {
    const bad = await ops('company', 'create', '--cnpj', '11222333000182', '--name', 'X');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr).error.code).toBe('validacao');
    const dup = randomCnpj();
    await ops('company', 'create', '--cnpj', dup, '--name', 'A');
    const again = await ops('company', 'create', '--cnpj', dup, '--name', 'A');
    expect(JSON.parse(again.stderr).error.code).toBe('regra_de_negocio');
    const usage = await ops('credential', 'create', '--company', dup, '--kind', 'password');
    expect(usage.code).toBe(2);
    const unknownFlag = await ops('company', 'list', '--verbose');
    expect(unknownFlag.code).toBe(2);
    expect(JSON.parse(unknownFlag.stderr).error).toMatchObject({ code: 'uso', message: expect.stringContaining("'--verbose'") });
    const noValue = await ops('credential', 'revoke', '--id');
    expect(noValue.code).toBe(2);
    expect(JSON.parse(noValue.stderr).error).toMatchObject({
      code: 'uso',
      message: expect.stringContaining("'--id <value>' argument missing"),
    });
    const scope = await ops('credential', 'create', '--company', dup, '--kind', 'api-key', '--scopes', 'admin');
    expect(JSON.parse(scope.stderr).error.code).toBe('validacao');
    const missing = await ops('credential', 'create', '--company', randomCnpj(), '--kind', 'api-key');
    expect(JSON.parse(missing.stderr).error.code).toBe('nao_encontrado');
  });

  it('rebuilds the read models', async () => {
    const res = await ops('projections', 'rebuild');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ rebuilt: true });
    expect(JSON.parse((await ops('company', 'list')).stdout).length).toBeGreaterThan(0);
  });

  it('reconciles batches with the outcomes they missed, and a repeat is the same', async () => {
    const first = await ops('lote', 'reconciliar');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ reconciled: true, outcomes_read: expect.any(Number) });
    expect((await ops('lote', 'reconciliar', '--company', 'x')).code).toBe(2);
  });
});
