import { createPool, readinessProbe } from '@frete/platform';
import { newEvent } from '../conformance/event-store.suite';
import { request, startTestApp, type TestApp } from '../support/app';

/** Issue 17, point 5: liveness and readiness, on the API's port and on the ops server (METRICS_PORT). */
describe('health endpoints', () => {
  let app: TestApp;
  let ahead = 0;
  beforeAll(async () => {
    app = await startTestApp({ METRICS_PORT: '0', READY_MAX_LAG_S: '60' }, { clock: () => new Date(Date.now() + ahead) });
  });
  afterAll(() => app?.close());

  const ready = {
    status: 'ready',
    checks: {
      started: { ok: true, detail: 'migrations done, services running' },
      database: { ok: true, detail: 'answers' },
      projections: { ok: true, detail: expect.stringContaining('(limit 60 s)') },
    },
  };

  it('the ops server and the API answer live and ready with each check', async () => {
    const ops = app.running.opsUrl!;
    expect(ops).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ops).not.toBe(app.url);
    for (const base of [ops, app.url]) {
      const live = await request(`${base}/health/live`, 'GET');
      expect({ base, status: live.status, body: live.body }).toEqual({ base, status: 200, body: { status: 'live' } });
      const res = await request(`${base}/health/ready`, 'GET');
      expect({ base, status: res.status, body: res.body }).toEqual({ base, status: 200, body: ready });
    }
  });

  it('the ops server serves the process metrics at /metrics', async () => {
    const res = await fetch(`${app.running.opsUrl!}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    // The same registry as the API's own /metrics: the projection lag of this process's projector, runtime metrics.
    expect(text).toMatch(/^frete_projection_lag_events\{projector="read-models"\} \d+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('the ops server answers 404 nao_encontrado elsewhere', async () => {
    const ops = app.running.opsUrl!;
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/v1/fiscal/status'],
      ['POST', '/health/live'],
    ] as const) {
      const res = await request(`${ops}${path}`, method);
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 404, code: 'nao_encontrado' });
      // The spec's envelope: the answer's request id in the body and the header alike.
      expect(res.body.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-request-id')).toBe(res.body.error.request_id);
    }
  });

  it('is not ready while the projections lag beyond READY_MAX_LAG_S, and ready again once they catch up', async () => {
    const { platform } = app.running;
    await platform.projections.stop();
    await platform.store.append(`saude-${Date.now()}`, [newEvent('teste.registrado', {}, null)], 'no_stream');
    ahead = 120_000;
    for (const base of [app.running.opsUrl!, app.url]) {
      const res = await request(`${base}/health/ready`, 'GET');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('not_ready');
      expect(res.body.checks.started.ok).toBe(true);
      expect(res.body.checks.database.ok).toBe(true);
      expect(res.body.checks.projections).toEqual({
        ok: false,
        detail: expect.stringMatching(/^1 events not yet projected, the oldest 1[12]\d(\.\d)? s old \(limit 60 s\)$/),
      });
    }
    // Below the limit the same lag is tolerated.
    ahead = 0;
    expect((await request(`${app.running.opsUrl!}/health/ready`, 'GET')).status).toBe(200);
    ahead = 120_000;
    await platform.projections.catchUp();
    const res = await request(`${app.running.opsUrl!}/health/ready`, 'GET');
    expect({ status: res.status, projections: res.body.checks.projections }).toEqual({
      status: 200,
      projections: { ok: true, detail: '0 events not yet projected, the oldest 0 s old (limit 60 s)' },
    });
  });

  it('a database that does not answer fails the database check, naming why', async () => {
    const pool = createPool(app.db.url, 1);
    await pool.end();
    const probe = readinessProbe({ started: () => true, pool, projections: null, maxLagS: 30 });
    const readiness = await probe();
    expect(readiness.status).toBe('not_ready');
    expect(readiness.checks.database).toEqual({ ok: false, detail: expect.stringMatching(/pool/i) });
    expect(Object.keys(readiness.checks)).toEqual(['started', 'database']);
  });
});
