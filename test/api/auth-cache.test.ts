import { CHECKPOINT_CHANNEL, decodeCheckpointAdvance } from '@frete/platform';
import { expectError, startTestApp, type TestApp } from '../support/app';
import { derrubarOuvintes, espiarSql, ouvir, outroProcesso, quandoOuvinte } from '../support/outro-processo';

const STATUS = '/v1/fiscal/status';
/** A batch of the read models that touched `aggregate`, heard by `platform`. */
const tocou = (aggregate: string) => (payload: string) => decodeCheckpointAdvance(payload)?.aggregates.includes(aggregate) ?? false;

/**
 * Credentials are kept in memory by each API process (spec section 1's first gate costs a query otherwise): a revoked
 * key or a changed company must still stop working at once, here and in every other process.
 */
describe('authentication kept in memory', () => {
  let app: TestApp;
  let outro: Awaited<ReturnType<typeof outroProcesso>>;

  beforeAll(async () => {
    app = await startTestApp();
    outro = await outroProcesso(app);
  });
  afterAll(async () => {
    await outro?.close();
    await app?.close();
  });

  it('looks a key up once: the GETs that follow run no credential query and no read-your-writes query', async () => {
    const c = await app.carrier();
    expect((await c.call('GET', STATUS)).status).toBe(200);
    // Both pools: credentials are read on the API's own, watermarks on the service's.
    const { pool, readPool } = app.running.platform;
    const sql = [espiarSql(pool, /rm\.credentials|write_watermarks/), espiarSql(readPool, /rm\.credentials|write_watermarks/)];
    try {
      for (let i = 0; i < 5; i++) expect((await c.call('GET', STATUS)).status).toBe(200);
    } finally {
      for (const s of sql) s.parar();
    }
    expect(sql.flatMap((s) => s.vistos)).toEqual([]);
  });

  it('refuses a key revoked by another process once this one hears it, though it was serving it from memory', async () => {
    const c = await app.carrier();
    expect((await c.call('GET', STATUS)).status).toBe(200);
    expect((await c.call('GET', STATUS)).status).toBe(200);
    const ouviu = ouvir(app.running.platform, CHECKPOINT_CHANNEL, tocou('credential'));
    await outro.operator.revokeCredential(c.credentialId);
    await ouviu;
    expectError(await c.call('GET', STATUS), 401, 'nao_autenticado');
  });

  it('refuses the fiscal track at once to a company another process turned into a non-carrier', async () => {
    const c = await app.carrier();
    expect((await c.call('GET', STATUS)).status).toBe(200);
    const ouviu = ouvir(app.running.platform, CHECKPOINT_CHANNEL, tocou('company'));
    await outro.operator.changeFlags(c.cnpj, { carrier: false });
    await ouviu;
    expectError(await c.call('GET', STATUS), 403, 'transportadora_nao_habilitada');
  });

  it('revokes at once in its own process (the operator in this process: no notification to wait for)', async () => {
    const c = await app.carrier();
    expect((await c.call('GET', STATUS)).status).toBe(200);
    await app.running.application.operator.revokeCredential(c.credentialId);
    expectError(await c.call('GET', STATUS), 401, 'nao_autenticado');
  });

  it('serves nothing from memory while it cannot listen: a change it could not hear holds at once', async () => {
    const c = await app.carrier();
    expect((await c.call('GET', STATUS)).status).toBe(200);
    const perdeu = quandoOuvinte(app.running.platform, 'perdeu');
    const voltou = quandoOuvinte(app.running.platform, 'voltou');
    await derrubarOuvintes(app.db.pool);
    await perdeu;
    // Written behind every process's back: no runner, no notification.
    await app.db.pool.query(`UPDATE rm.credentials SET status = 'revoked' WHERE credential_id = $1`, [c.credentialId]);
    expectError(await c.call('GET', STATUS), 401, 'nao_autenticado');
    await voltou;
    expectError(await c.call('GET', STATUS), 401, 'nao_autenticado');
  });
});
