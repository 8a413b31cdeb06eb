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

  it('limits each IP address across all routes', async () => {
    let last = 0;
    for (let i = 0; i < 45 && last !== 429; i++) last = (await request(`${app.url}/health`, 'GET')).status;
    expect(last).toBe(429);
    const res = await request(`${app.url}/health`, 'GET');
    expectError(res, 429, 'limite_requisicoes');
    expect(res.headers.get('retry-after')).toBeTruthy();
  });
});
