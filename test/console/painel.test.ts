import { ativos } from '../../services/console/src/assets';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { navegadorHttp, sessaoDe } from '../support/console';

/** Issue 18, point 5: the panel is served by the API process under /console, with its own session and form tokens. */
describe('the company panel (/console)', () => {
  let app: TestApp;
  let carrier: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp();
    carrier = await app.carrier();
  });
  afterAll(() => app?.close());

  it('sends a visitor without a session to the login page, keeping where they were going', async () => {
    const nav = navegadorHttp(app);
    for (const path of ['/console', '/console/', '/console/cte?situacao=autorizado']) {
      const res = await nav.get(path);
      expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({
        path,
        status: 303,
        location: `/console/entrar?volta=${encodeURIComponent(path)}`,
      });
    }
    // htmx requests get 401 and HX-Redirect instead of a redirect they would swap into the page.
    const hx = await nav.get('/console/lotes', { 'hx-request': 'true' });
    expect(hx.status).toBe(401);
    expect(hx.headers.get('hx-redirect')).toBe('/console/entrar');
  });

  it('serves its stylesheet and scripts from itself, cached under names that change with their content', async () => {
    for (const href of [ativos.css, ativos.htmx, ativos.painel]) {
      const res = await fetch(app.url + href);
      expect({ href, status: res.status }).toEqual({ href, status: 200 });
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    const missing = await fetch(`${app.url}/console/assets/nada.css`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('renders a page in Portuguese with every protective header, for a user with a session', async () => {
    const nav = await sessaoDe(app, carrier, 'leitura');
    const res = await nav.get('/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'; script-src 'self'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.html).toMatch(/^<!doctype html><html lang="pt-BR">/);
    expect(res.html).toContain('<main id="conteudo"');
    // No asset from outside the product: every src and href is a path of its own.
    const externos = [...res.html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((u) => !u.startsWith('/') && !u.startsWith('#') && u !== 'data:,');
    expect(externos).toEqual([]);
    // `leitura` does not see the admin's areas.
    expect(res.html).not.toContain('href="/console/integracao"');
  });

  it("refuses a POST without the form token, or with another browser's, with 403", async () => {
    const nav = await sessaoDe(app, carrier, 'admin');
    await nav.get('/console');
    expect(nav.csrf).toBeTruthy();
    const semToken = await nav.post('/console/sair', { _csrf: '' });
    expect(semToken.status).toBe(403);
    const outro = await sessaoDe(app, carrier, 'admin');
    outro.csrf = nav.csrf;
    expect((await outro.post('/console/sair', {})).status).toBe(403);
  });

  it('an API key does not open the panel, and a panel session is nothing to the API', async () => {
    const semCookie = await fetch(`${app.url}/console`, { headers: { authorization: `Bearer ${carrier.apiKey}` }, redirect: 'manual' });
    expect(semCookie.status).toBe(303);
    const nav = await sessaoDe(app, carrier, 'admin');
    const cookie = [...nav.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const api = await fetch(`${app.url}/v1/fiscal/veiculos`, { headers: { cookie } });
    expect(api.status).toBe(401);
    expect((await api.json()).error.code).toBe('nao_autenticado');
  });

  it('answers an unknown page with a 404 page of its own', async () => {
    const nav = await sessaoDe(app, carrier, 'leitura');
    const res = await nav.get('/console/nada-aqui');
    expect(res.status).toBe(404);
    expect(res.html).toContain('Página não encontrada');
  });
});
