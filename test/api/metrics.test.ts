import { randomUUID } from 'node:crypto';
import { request, startTestApp, expectError, type TestApp } from '../support/app';
import { lotePreparadoEmSp, postarLote1a1, relatorioFinal } from '../support/lote';
import { type Exposition, scrape } from '../support/prometheus';

/**
 * Issue 17, point 2: `GET /metrics` on the API's port, in the Prometheus text format, after real requests, a small
 * counter-CT-e batch through the processors and the simulated authority, and the projector.
 */
describe('GET /metrics (Prometheus)', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let m: Exposition & { contentType: string };
  let batchId: string;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '100000', RATE_LIMIT_IP_PER_MIN: '100000' });
    const { sub, chaves } = await lotePreparadoEmSp(app, 2);
    const posted = await postarLote1a1(sub, chaves);
    expect(posted.status).toBe(202);
    batchId = posted.body.data.batch_id as string;
    const report = await relatorioFinal(sub, batchId);
    expect(report.body.data.rows.map((r: { status: string }) => r.status)).toEqual(['emitted', 'emitted']);
    // Two errors of known codes on one route template, and a request no route matches.
    expectError(await sub.call('GET', `/v1/fiscal/cte/${randomUUID()}`), 404, 'nao_encontrado');
    expectError(await request(`${app.url}/v1/fiscal/cte/${randomUUID()}`, 'GET'), 401, 'nao_autenticado');
    expectError(await request(`${app.url}/no/such/${randomUUID()}`, 'GET'), 404, 'nao_encontrado');
    m = await scrape(`${app.url}/metrics`);
  });
  afterAll(() => app?.close());

  it('answers without a credential, in the text format, every line of which parses', () => {
    expect(m.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(m.samples.length).toBeGreaterThan(50);
  });

  it('counts HTTP requests by route template and status, never by raw URL', () => {
    expect(m.value('frete_http_requests_total', { method: 'POST', route: '/v1/fiscal/cte-subcontratacao/lote', status: '202' })).toBe(1);
    expect(
      m.value('frete_http_requests_total', { method: 'GET', route: '/v1/fiscal/cte-subcontratacao/lote/:batch_id', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(m.value('frete_http_requests_total', { method: 'GET', route: '/v1/fiscal/cte/:cte_uuid', status: '404' })).toBe(1);
    expect(m.value('frete_http_requests_total', { method: 'GET', route: '/v1/fiscal/cte/:cte_uuid', status: '401' })).toBe(1);
    expect(m.value('frete_http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' })).toBe(1);
    // Bounded labels: no id, key or company in any label of any series.
    const values = m.samples.flatMap((s) => Object.values(s.labels));
    expect(values.filter((v) => v.includes(batchId) || /[0-9a-f]{8}-[0-9a-f]{4}-/.test(v) || /\d{14}/.test(v))).toEqual([]);
  });

  it('counts errors by the envelope error.code, and times requests per route', () => {
    expect(m.value('frete_http_errors_total', { method: 'GET', route: '/v1/fiscal/cte/:cte_uuid', code: 'nao_encontrado' })).toBe(1);
    expect(m.value('frete_http_errors_total', { method: 'GET', route: '/v1/fiscal/cte/:cte_uuid', code: 'nao_autenticado' })).toBe(1);
    expect(m.value('frete_http_errors_total', { route: '(unmatched)', code: 'nao_encontrado' })).toBe(1);
    const lote = { method: 'POST', route: '/v1/fiscal/cte-subcontratacao/lote' };
    expect(m.value('frete_http_request_duration_seconds_count', lote)).toBe(1);
    expect(m.value('frete_http_request_duration_seconds_sum', lote)).toBeGreaterThan(0);
    expect(m.value('frete_http_request_duration_seconds_bucket', { ...lote, le: '+Inf' })).toBe(1);
  });

  it('times event-store appends and reads', () => {
    expect(m.value('frete_event_store_append_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(m.value('frete_event_store_appended_events_total')).toBeGreaterThan(0);
    expect(m.value('frete_event_store_read_duration_seconds_count', { operation: 'read_stream', outcome: 'ok' })).toBeGreaterThan(0);
  });

  it('reports the projection lag (events and seconds) of the read models', () => {
    expect(m.types.get('frete_projection_lag_events')).toBe('gauge');
    expect(m.value('frete_projection_lag_events', { projector: 'read-models' })).toBeGreaterThanOrEqual(0);
    expect(m.value('frete_projection_lag_seconds', { projector: 'read-models' })).toBeGreaterThanOrEqual(0);
  });

  it("counts the simulated authority's cStat 100 for each counter-CT-e, and times its calls", () => {
    const autorizar = { adapter: 'simulada', operation: 'autorizar_cte' };
    expect(m.value('frete_autoridade_cstat_total', { ...autorizar, cstat: '100' })).toBe(2);
    expect(m.value('frete_autoridade_request_duration_seconds_count', { ...autorizar, outcome: 'autorizado' })).toBe(2);
  });

  it('counts the batch rows per status from the read model', () => {
    expect(m.find('frete_lote_linhas')).toEqual([{ name: 'frete_lote_linhas', labels: { status: 'emitted' }, value: 2 }]);
  });

  it("times each processor's handling by event type and outcome, and reports its queue depth", () => {
    const emission = m.find('frete_processor_handling_duration_seconds_count', { processor: 'emission', outcome: 'ok' });
    expect(emission.length).toBeGreaterThan(0);
    expect(emission.reduce((n, s) => n + s.value, 0)).toBeGreaterThan(0);
    expect(m.find('frete_processor_handling_duration_seconds_count', { outcome: 'error' })).toEqual([]);
    for (const processor of ['emission', 'payout']) {
      expect(m.value('frete_processor_queue_depth', { processor })).toBeGreaterThanOrEqual(0);
    }
  });

  it('carries the Node runtime metrics', () => {
    expect(m.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(m.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('is counted itself, on its own route, from the next scrape on', async () => {
    const again = await scrape(`${app.url}/metrics`);
    expect(again.value('frete_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
  });
});
