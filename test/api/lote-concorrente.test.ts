import { startServices, type RunningServices } from '@frete/server';
import { startTestApp, type TestApp } from '../support/app';
import { lotePreparadoEmSp, numeracaoDosContraCte, postarLote1a1, relatorioFinal } from '../support/lote';
import { eventuallyAsync } from '../conformance/event-store.suite';

/**
 * A batch whose documents are in flight side by side (EMISSION_CONCURRENCY), through the sefaz adapter to the local
 * authority answering late, across failures that restart the emission processor from its checkpoint while other
 * documents are still out, and across a stop of the whole service mid-batch: every row once, every counter-CT-e
 * authorized once, the series gapless.
 */
const CHAVES = 60;

describe('a batch with documents in flight concurrently', () => {
  jest.setTimeout(300_000);
  let app: TestApp;
  let reiniciado: RunningServices | null = null;

  beforeAll(async () => {
    app = await startTestApp(
      { RATE_LIMIT_FISCAL_PER_MIN: '100000', RATE_LIMIT_IP_PER_MIN: '100000', EMISSION_CONCURRENCY: '8' },
      { autoridade: 'sefaz' },
    );
  });
  afterAll(async () => {
    await reiniciado?.stop();
    await app?.close();
  });

  it('survives HTTP 500s and a stop of the service mid-batch: every row once, each number once, no gap', async () => {
    const { sub, chaves } = await lotePreparadoEmSp(app, CHAVES);

    const local = app.autoridadeLocal!;
    // Each answer comes late, so that several documents are at the authority at once when the failures hit (the first
    // rule that matches a request applies: the 500s first, then the latency).
    local.falhas.programar([
      { tipo: 'erro_servidor', servico: 'CTeRecepcaoSincV4', vezes: 3 },
      { tipo: 'latencia', ms: 150, servico: 'CTeRecepcaoSincV4' },
    ]);
    const r = await postarLote1a1(sub, chaves);
    expect(r.status).toBe(202);
    const batchId = r.body.data.batch_id as string;

    // Stopped while documents are out: the processors end what they hold, the rest waits in the log.
    await eventuallyAsync(
      async () => {
        const { rows } = await app.db.pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM rm.ctes WHERE company_id = $1 AND origem = 'contra_cte' AND situacao = 'autorizado'`,
          [sub.companyId],
        );
        return Number(rows[0]!.n) >= 10;
      },
      'ten counter-CT-e authorized',
      120_000,
    );
    await app.running.stop();
    reiniciado = await startServices(app.config);
    const call = (method: string, path: string) =>
      fetch(`${reiniciado!.url}${path}`, { method, headers: { authorization: `Bearer ${sub.apiKey}` } }).then(async (res) => ({
        status: res.status,
        body: await res.json(),
      }));
    const report = (await relatorioFinal({ ...sub, call: call as typeof sub.call }, batchId, 240_000)).body.data;

    expect(report.status).toBe('done');
    expect(report.rows.map((row: { chave: string }) => row.chave)).toEqual(chaves);
    expect(report.rows.every((row: { status: string; financeiro: string }) => row.status === 'emitted' && row.financeiro === 'ok')).toBe(
      true,
    );
    expect(new Set(report.rows.map((row: { counter_cte_id: string }) => row.counter_cte_id)).size).toBe(CHAVES);
    // The three 500s were met: the processor restarted from its checkpoint with other documents in flight.
    expect(local.falhas.listar()).toEqual([{ tipo: 'latencia', ms: 150, servico: 'CTeRecepcaoSincV4' }]);

    const numeracao = await numeracaoDosContraCte(app, sub.companyId);
    expect(numeracao.map((x) => x.numero)).toEqual(Array.from({ length: CHAVES }, (_, i) => i + 1));
    expect(numeracao.every((x) => x.situacao === 'autorizado')).toBe(true);
    // In the log: one row event per row, one authorization and one number per counter-CT-e.
    const eventos = await app.db.pool.query<{ type: string; n: string }>(
      `SELECT event_type AS type, count(*) AS n FROM es_events
        WHERE event_type IN ('lote.linha_processada', 'cte.autorizado', 'cte.xml_assinado') AND metadata->>'company_id' = $1
        GROUP BY event_type ORDER BY event_type`,
      [sub.companyId],
    );
    expect(eventos.rows.map((e) => [e.type, Number(e.n)])).toEqual([
      ['cte.autorizado', CHAVES],
      ['cte.xml_assinado', CHAVES],
      ['lote.linha_processada', CHAVES],
    ]);
  });
});
