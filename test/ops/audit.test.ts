import { randomBytes } from 'node:crypto';
import { builtEntry, runNode } from '../support/processes';
import { freshDatabase, type TestDatabase } from '../support/db';
import { randomCnpj } from '../support/app';

// Each case starts several Node processes (about 2 s each on two cores): give them room on a loaded machine.
jest.setTimeout(120_000);

describe('pnpm ops audit verify (the event log hash chains)', () => {
  let db: TestDatabase;
  let ops: (...args: string[]) => ReturnType<typeof runNode>;
  beforeAll(async () => {
    db = await freshDatabase();
    const env = { DATABASE_URL: db.url, SECRETS_KEY: randomBytes(32).toString('base64'), APP_ENVIRONMENT: 'homologacao' };
    const entry = builtEntry('services/ops/dist/main.js');
    ops = (...args) => runNode(entry, args, env);
  });
  afterAll(() => db.drop());

  it('prints the verification as JSON, exits 0 while intact and 1 once an event is edited in SQL, naming it', async () => {
    const cnpj = randomCnpj();
    const outra = randomCnpj();
    const company = JSON.parse((await ops('company', 'create', '--cnpj', cnpj, '--name', 'TRANSPORTES AUDITADOS LTDA')).stdout);
    await ops('company', 'create', '--cnpj', outra, '--name', 'OUTRA LTDA');
    await ops('credential', 'create', '--company', cnpj, '--kind', 'api-key');

    const todas = await ops('audit', 'verify');
    expect(todas.code).toBe(0);
    expect(JSON.parse(todas.stdout)).toEqual({ integra: true, primeiro_evento_divergente: null, eventos_verificados: 3 });
    expect(todas.stderr).toContain('audit verify: 3 events checked');
    const daEmpresa = await ops('audit', 'verify', '--company', cnpj);
    expect(JSON.parse(daEmpresa.stdout)).toEqual({ integra: true, primeiro_evento_divergente: null, eventos_verificados: 2 });

    const { rows } = await db.pool.query<{ event_id: string }>(
      `SELECT event_id FROM es_events WHERE company_key = $1 AND company_seq = 1`,
      [company.company_id],
    );
    await db.pool.query(`UPDATE es_events SET data = jsonb_set(data, '{razao_social}', '"FORJADA LTDA"') WHERE event_id = $1`, [
      rows[0]!.event_id,
    ]);
    const adulterada = await ops('audit', 'verify', '--company', company.company_id);
    expect(adulterada.code).toBe(1);
    expect(JSON.parse(adulterada.stdout)).toEqual({
      integra: false,
      primeiro_evento_divergente: rows[0]!.event_id,
      eventos_verificados: 1,
    });
    const geral = await ops('audit', 'verify');
    expect(geral.code).toBe(1);
    expect(JSON.parse(geral.stdout)).toMatchObject({ integra: false, primeiro_evento_divergente: rows[0]!.event_id });
    // The other company's chain is not read as divergent.
    const intacta = await ops('audit', 'verify', '--company', outra);
    expect(intacta.code).toBe(0);
    expect(JSON.parse(intacta.stdout)).toMatchObject({ integra: true });
  });

  it('answers an unknown company and a misused option as JSON errors', async () => {
    const desconhecida = await ops('audit', 'verify', '--company', randomCnpj());
    expect(desconhecida.code).toBe(1);
    expect(JSON.parse(desconhecida.stderr).error.code).toBe('nao_encontrado');
    const uso = await ops('audit', 'verify', '--uf', 'SP');
    expect(uso.code).toBe(2);
    expect(JSON.parse(uso.stderr).error).toMatchObject({
      code: 'uso',
      message: expect.stringContaining("--uf does not apply to 'audit verify'"),
    });
  });
});
