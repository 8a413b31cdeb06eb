import { requestChildLogger, withLogFields } from '@frete/platform';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { cteAutorizado, emissora } from '../support/emissora';
import { capturedLogger, type LogLine } from '../support/log-lines';

describe('logs: pino JSON lines, the request id on HTTP lines, the event and correlation ids on processor lines', () => {
  const captured = capturedLogger('debug');
  let app: TestApp;
  let c: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp({ LOG_LEVEL: 'debug' }, { logger: captured.logger });
    c = await emissora(app);
  });
  afterAll(() => app?.close());

  it('every line is one JSON object with level and time; each says request_id once at most', async () => {
    const res = await c.call('GET', '/v1/fiscal/configuracao');
    expect(res.status).toBe(200);
    expect(captured.raw.length).toBeGreaterThan(0);
    for (const raw of captured.raw) {
      expect(raw.endsWith('\n') && raw.indexOf('\n') === raw.length - 1).toBe(true);
      const line = JSON.parse(raw) as LogLine;
      expect(typeof line.level).toBe('string');
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(raw.split('"request_id"').length).toBeLessThanOrEqual(2);
    }
  });

  it("an HTTP request's lines carry its X-Request-Id, a caller's own id too", async () => {
    const res = await c.call('GET', '/v1/fiscal/configuracao', undefined, { 'x-request-id': 'pedido-de-teste-42' });
    expect(res.headers.get('x-request-id')).toBe('pedido-de-teste-42');
    const mine = captured.lines().filter((l) => l.request_id === 'pedido-de-teste-42');
    expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(mine[1]).toMatchObject({ level: 'info', res: { statusCode: 200 } });
    // Every line of fastify's request logging names its request.
    const http = captured.lines().filter((l) => l.req !== undefined || l.res !== undefined);
    expect(http.length).toBeGreaterThan(2);
    expect(http.filter((l) => typeof l.request_id !== 'string')).toEqual([]);
    // A refusal is logged with the id its envelope gives.
    const refused = await c.call('GET', '/v1/fiscal/cte/00000000-0000-4000-8000-000000000000');
    expect(refused.status).toBe(404);
    expect(captured.lines().filter((l) => l.request_id === refused.body.error.request_id).length).toBeGreaterThan(0);
  });

  it("a processor's lines carry the id, type and correlation id of the event it handles", async () => {
    const { id } = await cteAutorizado(c);
    const { rows } = await app.db.pool.query<{ event_id: string; correlation_id: string }>(
      `SELECT event_id::text, metadata->>'correlation_id' AS correlation_id FROM es_events
        WHERE event_type = 'cte.emissao_solicitada' AND data::text LIKE $1`,
      [`%${id}%`],
    );
    expect(rows).toHaveLength(1);
    const handled = captured.lines().filter((l) => l.processor === 'emission' && l.event_id === rows[0]!.event_id);
    expect(handled).toEqual([
      expect.objectContaining({
        level: 'debug',
        msg: 'event handled',
        event_type: 'cte.emissao_solicitada',
        correlation_id: rows[0]!.correlation_id,
        duration_ms: expect.any(Number),
      }),
    ]);
    // Tracing is off here: no trace ids on the lines.
    expect(captured.lines().filter((l) => l.trace_id !== undefined)).toEqual([]);
    // Every processor line names its event.
    const processorLines = captured.lines().filter((l) => l.processor !== undefined);
    expect(processorLines.length).toBeGreaterThan(0);
    expect(processorLines.filter((l) => typeof l.event_id !== 'string' || typeof l.correlation_id !== 'string')).toEqual([]);
  });
});

describe('logger: the logging context', () => {
  it('lines inside withLogFields carry its fields; a request child keeps request_id once', () => {
    const captured = capturedLogger('info');
    withLogFields({ request_id: 'r-1' }, () => {
      captured.logger.info('root line');
      requestChildLogger(captured.logger, { request_id: 'r-1' }, {}).info('child line');
      withLogFields({ event_id: 'e-1', correlation_id: 'c-1' }, () => captured.logger.warn('nested'));
    });
    captured.logger.info('outside');
    expect(captured.raw.map((l) => l.split('"request_id"').length - 1)).toEqual([1, 1, 1, 0]);
    expect(
      captured.lines().map(({ msg, request_id, event_id, correlation_id }) => ({ msg, request_id, event_id, correlation_id })),
    ).toEqual([
      { msg: 'root line', request_id: 'r-1', event_id: undefined, correlation_id: undefined },
      { msg: 'child line', request_id: 'r-1', event_id: undefined, correlation_id: undefined },
      { msg: 'nested', request_id: 'r-1', event_id: 'e-1', correlation_id: 'c-1' },
      { msg: 'outside', request_id: undefined, event_id: undefined, correlation_id: undefined },
    ]);
  });
});
