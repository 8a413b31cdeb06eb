import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtEntry, ROOT, runNode, startUntil, stopProcess } from '../support/processes';
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

  it('creates a panel user with a one-time password, printing JSON; the creation is an event signed by the operator', async () => {
    const cnpj = randomCnpj();
    await ops('company', 'create', '--cnpj', cnpj, '--name', 'TRANSPORTES USUARIOS LTDA', '--carrier');
    const email = `Admin.${randomBytes(4).toString('hex')}@Exemplo.com.br`;
    const res = await ops('user', 'create', '--company', cnpj, '--email', email, '--role', 'admin');
    expect(res.code).toBe(0);
    const criado = JSON.parse(res.stdout);
    expect(criado).toEqual({
      usuario_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      company_id: expect.any(String),
      email: email.toLowerCase(),
      papel: 'admin',
      senha_temporaria: expect.stringMatching(/^[\w-]{16}$/),
    });
    // Listed at once, with its one-time password still to change; neither the password nor its hash is in the log.
    const { rows } = await db.pool.query(`SELECT papel, ativo, senha_temporaria FROM rm.usuarios WHERE usuario_id = $1`, [
      criado.usuario_id,
    ]);
    expect(rows).toEqual([{ papel: 'admin', ativo: true, senha_temporaria: true }]);
    const eventos = await db.pool.query(
      `SELECT event_type, metadata->>'actor' AS actor, data::text AS data FROM es_events WHERE stream_id = $1`,
      [`usuario-${email.toLowerCase()}`],
    );
    expect(eventos.rows).toEqual([{ event_type: 'usuario.criado', actor: 'operator', data: expect.any(String) }]);
    expect(eventos.rows[0].data).not.toContain(criado.senha_temporaria);
    expect(eventos.rows[0].data).not.toContain('argon2');

    const again = await ops('user', 'create', '--company', cnpj, '--email', email.toUpperCase(), '--role', 'leitura');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr).error.code).toBe('regra_de_negocio');
    const role = await ops('user', 'create', '--company', cnpj, '--email', 'x@exemplo.com.br', '--role', 'chefe');
    expect(role.code).toBe(2);
    const company = await ops('user', 'create', '--company', randomCnpj(), '--email', 'y@exemplo.com.br', '--role', 'leitura');
    expect(JSON.parse(company.stderr).error.code).toBe('nao_encontrado');
    const bad = await ops('user', 'create', '--company', cnpj, '--email', 'não é e-mail', '--role', 'leitura');
    expect(JSON.parse(bad.stderr).error.code).toBe('validacao');
  });

  it('rebuilds the read models (online: a side schema swapped in)', async () => {
    const res = await ops('projections', 'rebuild');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      rebuilt: true,
      events_applied: expect.any(Number),
      position: { commit: expect.stringMatching(/^\d+$/), prepare: expect.stringMatching(/^\d+$/) },
    });
    expect(JSON.parse(res.stdout).events_applied).toBeGreaterThan(0);
    expect(JSON.parse((await ops('company', 'list')).stdout).length).toBeGreaterThan(0);
  });

  it('switches a UF to its contingency authorizer and back, printing JSON; each switch is an event signed by the operator', async () => {
    const justificativa = 'SEFAZ-SP FORA DO AR DESDE AS 08:30';
    const dh = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$/);
    const sp = await ops('contingencia', 'ativar', '--uf', 'SP', '--justificativa', `  ${justificativa}  `);
    expect(sp.code).toBe(0);
    const ativada = JSON.parse(sp.stdout);
    expect(ativada).toEqual({ uf: 'SP', autorizador: 'SVC-RS', tp_emis: 7, dh_cont: dh, justificativa });
    const ba = await ops('contingencia', 'ativar', '--uf', 'BA', '--justificativa', 'SEFAZ VIRTUAL RS PARALISADA');
    expect(JSON.parse(ba.stdout)).toMatchObject({ uf: 'BA', autorizador: 'SVC-SP', tp_emis: 8 });
    const listed = JSON.parse((await ops('contingencia', 'listar')).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ uf: 'BA', autorizador: 'SVC-SP', tp_emis: 8, ativada_por: 'operator' }),
      {
        uf: 'SP',
        autorizador: 'SVC-RS',
        tp_emis: 7,
        dh_cont: ativada.dh_cont,
        justificativa,
        ativada_por: 'operator',
        ativada_em: expect.any(String),
      },
    ]);

    const again = await ops('contingencia', 'ativar', '--uf', 'SP', '--justificativa', justificativa);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr).error).toMatchObject({ code: 'contingencia_ja_ativa', message: expect.stringContaining('SVC-RS') });

    const off = await ops('contingencia', 'desativar', '--uf', 'SP');
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({ uf: 'SP', autorizador: 'SVC-RS', tp_emis: 7, dh_cont: ativada.dh_cont, dh_fim: dh });
    const offAgain = await ops('contingencia', 'desativar', '--uf', 'SP');
    expect(offAgain.code).toBe(1);
    expect(JSON.parse(offAgain.stderr).error.code).toBe('contingencia_nao_ativa');

    // The auditor's record: the log itself, with who switched and when.
    const { rows } = await db.pool.query(
      `SELECT event_type, data, metadata FROM es_events WHERE stream_id = 'contingencia-SP' ORDER BY stream_revision`,
    );
    expect(rows).toEqual([
      { event_type: 'contingencia.ativada', data: ativada, metadata: expect.objectContaining({ actor: 'operator', company_id: null }) },
      {
        event_type: 'contingencia.desativada',
        data: expect.objectContaining({ uf: 'SP' }),
        metadata: expect.objectContaining({ actor: 'operator' }),
      },
    ]);
    // A rebuild replays the switches: BA is still in contingency, SP no longer.
    expect((await ops('projections', 'rebuild')).code).toBe(0);
    expect(JSON.parse((await ops('contingencia', 'listar')).stdout).map((r: { uf: string }) => r.uf)).toEqual(['BA']);
  });

  it('refuses a contingency switch with a bad UF or justification (validacao) and a usage mistake (uso)', async () => {
    const badUf = await ops('contingencia', 'ativar', '--uf', 'XX', '--justificativa', 'SEFAZ FORA DO AR HA HORAS');
    expect(badUf.code).toBe(1);
    expect(JSON.parse(badUf.stderr).error).toEqual({ code: 'validacao', message: "'XX' is not a Brazilian state (UF)" });
    const hostile = await ops('contingencia', 'desativar', '--uf', 'S'.repeat(5000));
    expect(JSON.parse(hostile.stderr).error).toMatchObject({ code: 'validacao', message: expect.stringContaining('(5000 characters)') });
    const short = await ops('contingencia', 'ativar', '--uf', 'RJ', '--justificativa', '  FORA DO AR  ');
    expect(short.code).toBe(1);
    expect(JSON.parse(short.stderr).error).toMatchObject({ code: 'validacao', message: expect.stringContaining('15 to 255') });
    const missing = await ops('contingencia', 'ativar', '--uf', 'RJ');
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stderr).error).toMatchObject({
      code: 'uso',
      message: expect.stringContaining('--justificativa is required'),
    });
    expect(JSON.parse((await ops('contingencia', 'listar')).stdout).map((r: { uf: string }) => r.uf)).not.toContain('RJ');
  });

  it('reconciles batches with the outcomes they missed, and a repeat is the same', async () => {
    const first = await ops('lote', 'reconciliar');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ reconciled: true, outcomes_read: expect.any(Number) });
    expect((await ops('lote', 'reconciliar', '--company', 'x')).code).toBe(2);
  });

  it('verifies the read models against a replay: identical exits 0; a tampered row is printed and exits 1', async () => {
    const same = await ops('projections', 'verify');
    expect(same.code).toBe(0);
    const identical = JSON.parse(same.stdout);
    expect(identical).toMatchObject({ identicas: true, posicao: { commit: expect.any(String), prepare: expect.any(String) } });
    expect(identical.tabelas).toEqual(
      expect.arrayContaining([expect.objectContaining({ tabela: 'companies', so_vivas: 0, so_refeitas: 0, estrutura: null })]),
    );
    expect(same.stderr).toMatch(/projections verify: \d+ events replayed, at \d+\/\d+ of \d+\/\d+/);

    const { rows } = await db.pool.query<{ company_id: string }>(`SELECT company_id FROM rm.companies ORDER BY company_id LIMIT 1`);
    const companyId = rows[0]!.company_id;
    await db.pool.query(`UPDATE rm.companies SET razao_social = 'ADULTERADA PELO TESTE' WHERE company_id = $1`, [companyId]);
    try {
      const tampered = await ops('projections', 'verify', '--exemplos', '1');
      expect(tampered.code).toBe(1);
      const report = JSON.parse(tampered.stdout);
      expect(report.identicas).toBe(false);
      const differing = report.tabelas.filter((t: { so_vivas: number; so_refeitas: number }) => t.so_vivas + t.so_refeitas > 0);
      expect(differing).toEqual([
        expect.objectContaining({
          tabela: 'companies',
          so_vivas: 1,
          so_refeitas: 1,
          exemplos_so_vivas: [expect.objectContaining({ company_id: companyId, razao_social: 'ADULTERADA PELO TESTE' })],
          exemplos_so_refeitas: [expect.objectContaining({ company_id: companyId })],
        }),
      ]);
      expect(JSON.stringify(report.tabelas)).not.toContain('projection_checkpoint');
    } finally {
      expect((await ops('projections', 'rebuild')).code).toBe(0);
    }
    const usage = await ops('projections', 'verify', '--exemplos', 'muitos');
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr).error).toMatchObject({ code: 'uso', message: expect.stringContaining('--exemplos') });
  });
});

/** Issue 28, point 3: run from another shell, without the service's DATA_DIR, ops works on the service's database. */
describe('pnpm ops beside a service on embedded PostgreSQL, without its DATA_DIR', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-ops-servico-'));
  // Where services announce themselves: a folder of this suite's own, so that other suites' services are not in it.
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-ops-run-'));
  const unset = { DATABASE_URL: '', EVENTSTORE_URL: '', KAFKA_BROKERS: '', SECRETS_KEY: '', APP_ENVIRONMENT: '', FRETE_RUN_DIR: runDir };
  const opsEnv = { ...unset, DATA_DIR: '' };
  const entry = () => builtEntry('services/ops/dist/main.js');
  const cnpjs = (stdout: string) => (JSON.parse(stdout) as { cnpj: string }[]).map((c) => c.cnpj);
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  it('finds the running service’s database, says so on stderr, prints JSON alone (through pnpm too), and says when it starts one', async () => {
    const service = await startUntil(
      builtEntry('services/server/dist/main.js'),
      { ...unset, DATA_DIR: dataDir, PORT: '0' },
      /API: (http:\/\/[^\s]+)\/v1[\s\S]*API key \(all scopes\)/,
      120_000,
    );
    const url = service.match[1]!;
    try {
      expect(fs.readdirSync(runDir)).toEqual([`${service.child.pid}.json`]);
      const listed = await runNode(entry(), ['company', 'list'], opsEnv);
      expect(listed.code).toBe(0);
      expect(cnpjs(listed.stdout)).toContain('11222333000181');
      expect(listed.stderr).toBe(
        `ops: database: embedded PostgreSQL in ${dataDir}, of the service running as pid ${service.child.pid}, API ${url}\n`,
      );

      // `pnpm ops` is a bin (no script banner on stdout): its output goes to a JSON parser as it is.
      const viaPnpm = spawnSync('pnpm', ['ops', 'company', 'list'], { cwd: ROOT, env: { ...process.env, ...opsEnv }, encoding: 'utf8' });
      expect({ status: viaPnpm.status, stderr: viaPnpm.stderr }).toMatchObject({
        status: 0,
        stderr: expect.stringContaining(`pid ${service.child.pid}`),
      });
      expect(cnpjs(viaPnpm.stdout)).toContain('11222333000181');
    } finally {
      expect(await stopProcess(service.child)).toBe(0);
    }
    // The stop withdraws the announcement; with no service running, ops says it started the database itself.
    expect(fs.readdirSync(runDir)).toEqual([]);
    const alone = await runNode(entry(), ['company', 'list'], { ...opsEnv, DATA_DIR: dataDir });
    expect(alone.code).toBe(0);
    expect(cnpjs(alone.stdout)).toContain('11222333000181');
    expect(alone.stderr).toBe(
      `ops: database: embedded PostgreSQL in ${dataDir}, started for this command and stopped after it (no service of this checkout runs on it)\n`,
    );
  });

  it('with several services running and none on the default folder, names them and opens no database', async () => {
    const other = path.join(runDir, 'other');
    fs.mkdirSync(other);
    // Two live processes (this one and its parent) announced on two folders.
    for (const [pid, dir, at] of [
      [process.pid, '/srv/frete-a', '2026-11-29T10:00:01.000Z'],
      [process.ppid, '/srv/frete-b', '2026-11-29T10:00:00.000Z'],
    ] as const)
      fs.writeFileSync(
        path.join(other, `${pid}.json`),
        JSON.stringify({ pid, environment: 'homologacao', data_dir: dir, api: null, started_at: at }),
      );
    const res = await runNode(entry(), ['company', 'list'], { ...opsEnv, FRETE_RUN_DIR: other });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr).error).toEqual({
      code: 'banco_ambiguo',
      message: expect.stringMatching(
        /several services .*DATA_DIR=\/srv\/frete-a.*DATA_DIR=\/srv\/frete-b.*: set DATA_DIR to the one to work on$/,
      ),
    });
  });
});
