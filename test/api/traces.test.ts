import { randomBytes } from 'node:crypto';
import { verificarCadeia } from '@frete/platform';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizadoNoTrace, emissora } from '../support/emissora';
import { capturedLogger } from '../support/log-lines';
import { ancestorsOf, appends, oneSpan, type OtlpReceiver, startOtlpReceiver, traceWith, waitForSpans } from '../support/otlp-receiver';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

describe('traces: one trace from the HTTP request through the append, the processor and the authority (OTLP/HTTP)', () => {
  const captured = capturedLogger('debug');
  let receiver: OtlpReceiver;
  let app: TestApp;
  let c: TestCarrier;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    app = await startTestApp(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'frete-teste', LOG_LEVEL: 'debug' },
      { logger: captured.logger },
    );
    c = await emissora(app);
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it("a CT-e's issue: server span → eventstore.append → processor.handle → autoridade autorizarCte and the outcome's append", async () => {
    // The caller's own trace: every span of the issue must join it.
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const { id, emissao: issued } = await cteAutorizadoNoTrace(c, `00-${traceId}-${callerSpan}-01`);

    const trace = await waitForSpans(receiver, traceWith(traceId, 'cte.autorizado'));
    expect(receiver.refused).toEqual([]);
    const server = oneSpan(trace, 'POST /v1/fiscal/cte/:cte_uuid/emissao');
    expect(server).toMatchObject({ kind: SERVER, parentSpanId: callerSpan, service: 'frete-teste' });
    expect(server.attributes).toMatchObject({ 'http.route': '/v1/fiscal/cte/:cte_uuid/emissao', 'http.response.status_code': 202 });
    expect(server.attributes['http.request_id']).toBe(issued.headers.get('x-request-id'));

    const requested = oneSpan(trace, 'eventstore.append', appends('cte.emissao_solicitada'));
    expect(requested.parentSpanId).toBe(server.spanId);

    const handling = oneSpan(trace, 'processor.handle cte.emissao_solicitada');
    expect(handling).toMatchObject({ kind: CONSUMER, parentSpanId: requested.spanId });
    expect(handling.attributes).toMatchObject({ 'processor.name': 'emission', 'event.type': 'cte.emissao_solicitada' });

    const autoridade = oneSpan(trace, 'autoridade autorizarCte');
    expect(autoridade).toMatchObject({ kind: CLIENT });
    expect(autoridade.attributes).toMatchObject({
      'autoridade.operacao': 'autorizarCte',
      'autoridade.tipo': 'autorizado',
      'autoridade.cstat': 100,
    });
    expect(ancestorsOf(autoridade, trace).map((s) => s.spanId)).toEqual(
      expect.arrayContaining([handling.spanId, requested.spanId, server.spanId]),
    );

    const outcome = oneSpan(trace, 'eventstore.append', appends('cte.autorizado'));
    expect(ancestorsOf(outcome, trace).map((s) => s.spanId)).toContain(handling.spanId);
    // No span of the issue failed.
    expect(trace.filter((s) => s.status.code === 2).map((s) => s.name)).toEqual([]);

    // The events carry the context of the append that recorded them; the company's hash chain still verifies.
    const { rows } = await app.db.pool.query<{ event_type: string; traceparent: string | null }>(
      `SELECT event_type, metadata->>'traceparent' AS traceparent FROM es_events
        WHERE event_type IN ('cte.emissao_solicitada', 'cte.autorizado') AND data::text LIKE $1 ORDER BY global_position`,
      [`%${id}%`],
    );
    expect(rows).toEqual([
      { event_type: 'cte.emissao_solicitada', traceparent: `00-${traceId}-${requested.spanId}-01` },
      { event_type: 'cte.autorizado', traceparent: `00-${traceId}-${outcome.spanId}-01` },
    ]);
    expect(await verificarCadeia(app.db.pool, { companyId: c.companyId })).toMatchObject({ integra: true });

    // The processor's log line of that handling names the trace and its span.
    const line = captured
      .lines()
      .find((l) => l.msg === 'event handled' && l.event_type === 'cte.emissao_solicitada' && l.trace_id === traceId);
    expect(line).toMatchObject({ span_id: handling.spanId, processor: 'emission' });
  }, 60_000);

  it('a request without traceparent starts a trace of its own, its server span the root', async () => {
    const res = await c.call('GET', '/v1/fiscal/configuracao');
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const span = await waitForSpans(receiver, (all) => all.find((s) => s.attributes['http.request_id'] === requestId));
    expect(span).toMatchObject({ name: 'GET /v1/fiscal/configuracao', kind: SERVER, parentSpanId: '' });
  });
});
