import { type Browser } from 'playwright-core';
import { COOKIE_SESSAO } from '@frete/console';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { sessaoDe } from '../support/console';
import { abrirNavegador, describeNavegador, entrarComCookie } from '../support/navegador';

interface Violacao {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Issue 18, point 5: every main page passes axe-core's WCAG 2 A and AA rules (labels, names, landmarks, contrast) in
 * Chromium. axe is injected into the page, so this context alone sets the CSP aside.
 */
describeNavegador('the panel is accessible (axe-core, WCAG 2 A/AA)', () => {
  jest.setTimeout(180_000);
  let app: TestApp;
  let browser: Browser;
  let carrier: TestCarrier;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), abrirNavegador()]);
    carrier = await app.carrier({ scopes: ['fiscal', 'operacao'] });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const PAGINAS = [
    '/console',
    '/console/cte',
    '/console/mdfe',
    '/console/lotes',
    '/console/caixa-de-entrada',
    '/console/parcelas',
    '/console/ciot',
    '/console/vale-pedagio',
    '/console/cadastros',
    '/console/cadastros/veiculos',
    '/console/configuracao',
    '/console/integracao',
    '/console/integracao/webhooks',
    '/console/usuarios',
    '/console/conta',
  ];

  it.each<[string, boolean]>([['/console/entrar', false], ...PAGINAS.map((p): [string, boolean] => [p, true])])(
    '%s has no violation',
    async (path, comSessao) => {
      const context = await browser.newContext({ bypassCSP: true });
      if (comSessao) {
        const nav = await sessaoDe(app, carrier, 'admin');
        await entrarComCookie(context, app.url, nav.cookies.get(COOKIE_SESSAO)!);
      }
      const page = await context.newPage();
      const res = await page.goto(`${app.url}${path}`);
      expect(res?.status()).toBe(200);
      await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      const violacoes = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Violacao[] }> } }).axe;
        const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
        return r.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          onde: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
        }));
      });
      expect(violacoes).toEqual([]);
      await context.close();
    },
  );
});
