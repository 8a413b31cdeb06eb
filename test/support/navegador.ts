import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { COOKIE_SESSAO } from '@frete/console';

/** Debian's Chromium (apt-get install chromium), driven by playwright-core; CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** No network of its own: no updates, no QUIC, no sync, no first-run pages. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the screenshots go (a CI artefact; not in git). */
export const CAPTURAS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'console');

/** Browser suites run where Chromium is; under REQUIRE_BROWSER (CI) a missing one fails instead of skipping. */
export const describeNavegador: jest.Describe =
  fs.existsSync(CHROMIUM) || process.env.REQUIRE_BROWSER === '1' ? describe : (describe.skip as jest.Describe);

export function abrirNavegador(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** A page that records what the browser complained of: console errors (a CSP refusal among them) and failed requests. */
export async function novaPagina(
  browser: Browser,
  opcoes: { celular?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; queixas: string[] }> {
  const context = await browser.newContext(
    opcoes.celular
      ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'pt-BR' }
      : { viewport: { width: 1280, height: 900 }, locale: 'pt-BR' },
  );
  const page = await context.newPage();
  const queixas: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') queixas.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => queixas.push(`page: ${e.message}`));
  page.on('requestfailed', (r) => queixas.push(`request: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  return { context, page, queixas };
}

/** Opens the panel in this context as an existing session (the login itself has its own browser test). */
export async function entrarComCookie(context: BrowserContext, baseUrl: string, token: string): Promise<void> {
  await context.addCookies([
    { name: COOKIE_SESSAO, value: token, url: `${baseUrl}/console`, httpOnly: true, secure: true, sameSite: 'Strict' },
  ]);
}

/** A full-page screenshot kept under test-artifacts/console/<nome>.png. */
export async function capturar(page: Page, nome: string): Promise<string> {
  fs.mkdirSync(CAPTURAS, { recursive: true });
  const arquivo = path.join(CAPTURAS, `${nome}.png`);
  await page.screenshot({ path: arquivo, fullPage: true });
  return arquivo;
}
