import { ProcessadorLote, reconciliarLotes } from '@frete/application';
import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { postarLote1a1, receberCteDoContratante, relatorioFinal, subcontratadaPronta } from '../support/lote';

/** What a batch learns from other streams; a history written before `lote.concluido` existed has none of these. */
const APRENDIDOS = ['lote.linha_emitida', 'lote.linha_rejeitada', 'lote.financeiro_registrado', 'lote.concluido'];

describe('reconciling batches whose history predates lote.concluido', () => {
  let app: TestApp;
  let sub: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '100000' });
    sub = await subcontratadaPronta(app);
  });
  afterAll(async () => app?.close());

  it('gives an ended batch its outcomes and end once, and a rebuild shows it done with the rows it had', async () => {
    const contratante = randomCnpj();
    const chaves = [await receberCteDoContratante(sub, contratante), await receberCteDoContratante(sub, contratante)];
    const posted = await postarLote1a1(sub, chaves, 300);
    expect(posted.status).toBe(202);
    const batch = posted.body.data.batch_id as string;
    expect((await relatorioFinal(sub, batch)).body.data.status).toBe('done');

    const { pool, store, clock, readYourWrites, projections } = app.running.platform;
    const stream = `lote-${batch}`;
    /** The report's rows as the read model holds them (their times aside: a reconciled outcome is recorded later). */
    const linhas = async () =>
      (
        await pool.query(
          `SELECT linha, status, counter_cte_id, financeiro, error_code, error_message FROM rm.lote_linhas WHERE batch_id = $1 ORDER BY linha`,
          [batch],
        )
      ).rows;
    const vistas = await linhas();
    expect(vistas.map((l) => [l.status, l.financeiro])).toEqual([
      ['emitted', 'ok'],
      ['emitted', 'ok'],
    ]);
    const aprendidos = async () => (await store.readStream(stream)).filter((e) => APRENDIDOS.includes(e.type)).map((e) => e.id);
    const antes = await aprendidos();
    expect(antes.length).toBeGreaterThan(0);
    // The history as the code before lote.concluido wrote it.
    await pool.query('DELETE FROM es_events WHERE stream_id = $1 AND event_type = ANY($2)', [stream, APRENDIDOS]);
    await pool.query(
      'UPDATE es_streams SET revision = (SELECT max(stream_revision) FROM es_events WHERE stream_id = $1) WHERE stream_id = $1',
      [stream],
    );
    expect(await aprendidos()).toEqual([]);
    // The report is the batch's own events: rebuilt from such a history, its rows are pending, whatever the
    // counter-CT-e and the payout recorded, until the batch is told their outcomes.
    await projections.rebuild();
    expect((await linhas()).map((l) => [l.status, l.financeiro])).toEqual([
      ['pending', null],
      ['pending', null],
    ]);

    const processador = new ProcessadorLote({
      store,
      contraCte: app.running.application.contraCte,
      emissor: app.running.application.emissorCte,
      clock,
      readYourWrites,
    });
    const primeira = await reconciliarLotes(store, processador);
    expect(primeira.desfechos).toBeGreaterThan(0);
    // The same outcomes, with the same ids: they derive from the batch and its rows, however the outcomes are grouped.
    expect((await aprendidos()).sort()).toEqual([...antes].sort());

    const total = async () => (await pool.query('SELECT count(*)::int AS n FROM es_events')).rows[0].n as number;
    const depois = await total();
    await reconciliarLotes(store, processador);
    expect(await total()).toBe(depois);

    await projections.rebuild();
    expect((await sub.call('GET', `/v1/fiscal/cte-subcontratacao/lote/${batch}`)).body.data.status).toBe('done');
    // Row by row, the report rebuilt from the reconciled history is the one the batch had.
    expect(await linhas()).toEqual(vistas);
  });
});
