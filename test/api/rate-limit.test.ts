import { expectError, request, startTestApp, type TestApp } from '../support/app';

describe('rate limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '3', RATE_LIMIT_IP_PER_MIN: '40' });
  });
  afterAll(() => app?.close());

  it('limits each carrier on the fiscal track, with Retry-After, without touching other carriers', async () => {
    const a = await app.carrier();
    const b = await app.carrier();
    for (let i = 0; i < 3; i++) expect((await a.call('GET', '/v1/fiscal/catalogos')).status).toBe(200);
    const limited = await a.call('GET', '/v1/fiscal/catalogos');
    expectError(limited, 429, 'limite_requisicoes');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await b.call('GET', '/v1/fiscal/catalogos')).status).toBe(200);
  });

  it("limits each IP address across all routes by the socket's address: a forged X-Forwarded-For changes nothing", async () => {
    // A new forged address each time: were the header believed, every request would open a bucket of its own.
    const forged = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` });
    let last = 0;
    for (let i = 0; i < 45 && last !== 429; i++) last = (await request(`${app.url}/health`, 'GET', undefined, forged(i))).status;
    expect(last).toBe(429);
    const res = await request(`${app.url}/v1/openapi.json`, 'GET', undefined, forged(200));
    expectError(res, 429, 'limite_requisicoes');
    expect(res.headers.get('retry-after')).toBeTruthy();
  });
});

/**
 * TRUST_PROXY set: the test client connects from loopback, so it stands as the proxy (or the last of the proxies) and
 * the X-Forwarded-For it sends is what a proxy would have written.
 */
describe('rate limits behind a proxy (TRUST_PROXY)', () => {
  const LIMIT = 5;
  const start = (trustProxy: string) => startTestApp({ SERVICES: 'api', RATE_LIMIT_IP_PER_MIN: String(LIMIT), TRUST_PROXY: trustProxy });
  const health = (app: TestApp, xff?: string) =>
    request(`${app.url}/health`, 'GET', undefined, xff === undefined ? {} : { 'x-forwarded-for': xff });
  /** Spends the address's quota: LIMIT answers, then the refusal. */
  async function exhaust(app: TestApp, xff: string) {
    for (let i = 0; i < LIMIT; i++) expect((await health(app, xff)).status).toBe(200);
    expectError(await health(app, xff), 429, 'limite_requisicoes');
  }

  describe('a list of addresses (TRUST_PROXY=127.0.0.1)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await start('127.0.0.1');
    });
    afterAll(() => app?.close());

    it('counts each forwarded client apart, and a client cannot prepend its way out of its own count', async () => {
      await exhaust(app, '203.0.113.7');
      // The proxy appends the address it saw: whatever the client wrote before it is not the proxy's word.
      expectError(await health(app, '198.51.100.1, 203.0.113.7'), 429, 'limite_requisicoes');
      expect((await health(app, '203.0.113.8')).status).toBe(200);
      // Without the header the proxy's own address is the client: a bucket of its own too.
      expect((await health(app)).status).toBe(200);
    });
  });

  describe('a hop count (TRUST_PROXY=2)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await start('2');
    });
    afterAll(() => app?.close());

    it("takes the address two hops back, whatever the inner proxy's address, and no earlier entry", async () => {
      await exhaust(app, '203.0.113.7, 10.0.0.1');
      // The inner proxy is trusted by count, not by address: another one forwarding the same client changes nothing.
      expectError(await health(app, '203.0.113.7, 10.0.0.2'), 429, 'limite_requisicoes');
      expectError(await health(app, '198.51.100.1, 203.0.113.7, 10.0.0.1'), 429, 'limite_requisicoes');
      expect((await health(app, '203.0.113.8, 10.0.0.1')).status).toBe(200);
    });
  });
});
