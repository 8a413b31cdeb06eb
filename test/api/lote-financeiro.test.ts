import { DirectTransport } from '@frete/platform';
import { payoutHandlers, payoutProcessor } from '@frete/payout-processor';
import { railInterno } from '@frete/adapters';
import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { MOTORISTA_CPF, postarLote1a1, receberCteDoContratante, relatorioFinal, subcontratadaPronta } from '../support/lote';

/**
 * Spec section 3: the provider accepted the counter-CT-e, a later step failed → the row is `emitted` with
 * `financeiro: failed`, never `failed`. The payout processor is held back while the documents are authorized, the
 * driver leaves the registry, and only then does the financial step run: it cannot register the payout.
 */
describe('batch row emitted with financeiro failed', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let sub: TestCarrier;
  let payout: DirectTransport | null = null;

  beforeAll(async () => {
    app = await startTestApp({ SERVICES: 'api,projector,emission-processor', RATE_LIMIT_FISCAL_PER_MIN: '100000' });
    sub = await subcontratadaPronta(app);
  });
  afterAll(async () => {
    await payout?.stop();
    await app?.close();
  });

  it('the authorized rows stay pending without the financial step, then become emitted with financeiro failed', async () => {
    const contratante = randomCnpj();
    const chaves = [await receberCteDoContratante(sub, contratante), await receberCteDoContratante(sub, contratante)];
    const posted = await postarLote1a1(sub, chaves, 300);
    expect(posted.status).toBe(202);
    const batch = posted.body.data.batch_id as string;
    const report = () => sub.call('GET', `/v1/fiscal/cte-subcontratacao/lote/${batch}`);

    // Authorized, financial step not yet done: the batch records a row's emission with its payout's outcome, so the
    // rows are pending, naming their authorized counter-CT-e, and the batch is not done.
    const autorizados = async () => {
      const rows = (await report()).body.data.rows as { counter_cte_id?: string }[];
      if (rows.length !== 2 || !rows.every((x) => x.counter_cte_id)) return false;
      for (const x of rows)
        if ((await sub.call('GET', `/v1/fiscal/cte/${x.counter_cte_id}`)).body.data.situacao !== 'autorizado') return false;
      return true;
    };
    for (let i = 0; i < 200 && !(await autorizados()); i++) await new Promise((res) => setTimeout(res, 100));
    expect(await autorizados()).toBe(true);
    const r = await report();
    expect(r.body.data.status).toBe('processing');
    expect(r.body.data.rows.map((x: { status: string }) => x.status)).toEqual(['pending', 'pending']);
    for (const row of r.body.data.rows) expect(row.financeiro).toBeUndefined();

    const motoristas = (await sub.call('GET', '/v1/fiscal/motoristas')).body.data as { id: number; cpf: string }[];
    const id = motoristas.find((m) => m.cpf === MOTORISTA_CPF)!.id;
    expect((await sub.call('DELETE', `/v1/fiscal/motoristas/${id}`)).status).toBeLessThan(300);

    const p = app.running.platform;
    payout = new DirectTransport(p.store, p.pool);
    await payout.start(
      payoutProcessor(payoutHandlers({ store: p.store, readYourWrites: p.readYourWrites, clock: p.clock, rail: railInterno })),
    );

    const final = (await relatorioFinal(sub, batch)).body.data;
    expect(final.status).toBe('done');
    for (const row of final.rows) {
      expect(row).toMatchObject({ status: 'emitted', counter_cte_id: expect.any(String), financeiro: 'failed' });
      expect(row.error).toBeUndefined();
      const parcelas = await app.running.platform.pool.query(
        'SELECT financeiro, financeiro_erro_codigo FROM rm.repasse_documentos WHERE cte_id = $1',
        [row.counter_cte_id],
      );
      expect(parcelas.rows[0]).toMatchObject({ financeiro: 'failed', financeiro_erro_codigo: 'motorista_nao_encontrado' });
    }
  });
});
