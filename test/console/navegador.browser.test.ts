import { type Browser } from 'playwright-core';
import { COOKIE_SESSAO } from '@frete/console';
import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { sessaoDe } from '../support/console';
import { abrirNavegador, capturar, describeNavegador, entrarComCookie, novaPagina } from '../support/navegador';

/** Issue 18, points 5 and 6: the panel in a real browser (Debian's Chromium through playwright-core). */
describeNavegador('the panel in Chromium', () => {
  let app: TestApp;
  let carrier: TestCarrier;
  let browser: Browser;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), abrirNavegador()]);
    carrier = await app.carrier();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('loads the home page with its own stylesheet and scripts, and the browser reports nothing refused', async () => {
    const nav = await sessaoDe(app, carrier, 'admin');
    const { context, page, queixas } = await novaPagina(browser);
    await entrarComCookie(context, app.url, nav.cookies.get(COOKIE_SESSAO)!);
    await page.goto(`${app.url}/console`);
    await page.getByRole('heading', { level: 1, name: 'Início' }).waitFor();
    // htmx ran (it marks the document once it has processed it) and no CSP or asset error was logged.
    await page.waitForFunction(() => 'htmx' in window);
    expect(queixas).toEqual([]);
    // The skip link is the first thing the keyboard reaches, and it leads to the content.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Pular para o conteúdo');
    await capturar(page, 'inicio');
    await context.close();
  });

  it('fits a phone screen: nothing wider than the viewport', async () => {
    const nav = await sessaoDe(app, carrier, 'operador');
    const { context, page, queixas } = await novaPagina(browser, { celular: true });
    await entrarComCookie(context, app.url, nav.cookies.get(COOKIE_SESSAO)!);
    await page.goto(`${app.url}/console`);
    const largura = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(largura).toBeLessThanOrEqual(390);
    expect(queixas).toEqual([]);
    await capturar(page, 'inicio-celular');
    await context.close();
  });
});
