import { type Browser, type Page } from 'playwright-core';
import { DirectTransport } from '@frete/platform';
import { payoutHandlers, payoutProcessor } from '@frete/payout-processor';
import { railInterno } from '@frete/adapters';
import { COOKIE_SESSAO } from '@frete/console';
import { randomCnpj, request, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { operadorCli } from '../support/operador-cli';
import { sessaoDe } from '../support/console';
import { makeA1 } from '../support/certificates';
import { ENDERECO_SP } from '../support/emissora';
import { MOTORISTA_CPF, MOTORISTA_REPASSE_MANUAL, PLACA, receberCteDoContratante } from '../support/lote';
import { abrirNavegador, capturar, describeNavegador, entrarComCookie, novaPagina } from '../support/navegador';

/**
 * Issue 18, point 6: a carrier's office staff in a real browser (Debian's Chromium through playwright-core): the first
 * admin, made by the operator tool, logs in and changes the one-time password; creates an API key that the integrator
 * then uses against the API; uploads the certificate; follows a batch to its end; releases an installment; and another
 * company's user sees none of it. The screenshots of the main pages are kept under test-artifacts/console/.
 */
describeNavegador('the panel end to end, in Chromium', () => {
  jest.setTimeout(240_000);
  let app: TestApp;
  let browser: Browser;
  let empresa: TestCarrier;
  let outra: TestCarrier;
  let page: Page;
  let queixas: string[];
  let loteId = '';
  let contraCteId = '';

  beforeAll(async () => {
    [app, browser] = await Promise.all([
      // No payout processor until the batch's page is open: the batch cannot finish before, so the page sees it run.
      startTestApp({ SERVICES: 'api,projector,emission-processor', RATE_LIMIT_FISCAL_PER_MIN: '100000', RATE_LIMIT_IP_PER_MIN: '100000' }),
      abrirNavegador(),
    ]);
    [empresa, outra] = await Promise.all([
      app.carrier({ name: 'TRANSPORTES PAINEL LTDA', scopes: ['fiscal', 'operacao'] }),
      app.carrier({ name: 'OUTRA TRANSPORTES LTDA', scopes: ['fiscal', 'operacao'] }),
    ]);
    ({ page, queixas } = await novaPagina(browser));
  });
  let payout: DirectTransport | null = null;
  afterAll(async () => {
    await payout?.stop();
    await browser?.close();
    await app?.close();
  });
  afterEach(() => {
    expect(queixas.filter((q) => !q.includes('status of 4'))).toEqual([]);
  });

  let chave = '';
  /** The integrator's calls, with the key the admin made in the panel. */
  const integrador = (method: string, path: string, body?: unknown) =>
    request(app.url + path, method, body, { authorization: `Bearer ${chave}` });

  it("logs the first admin in with the operator tool's one-time password, which must be changed at once", async () => {
    const ops = operadorCli({ DATABASE_URL: app.db.url, SECRETS_KEY: app.config.secretsKey });
    const admin = await ops('user', 'create', '--company', empresa.cnpj, '--email', 'gerente@painel.example', '--role', 'admin');
    expect(admin).toMatchObject({ email: 'gerente@painel.example', papel: 'admin', company_id: empresa.companyId });
    await page.goto(`${app.url}/console/lotes`);
    await page.waitForURL(/\/console\/entrar\?volta=%2Fconsole%2Flotes$/);
    await page.getByLabel('E-mail').fill('gerente@painel.example');
    await page.getByLabel('Senha', { exact: true }).fill(admin.senha_temporaria!);
    await capturar(page, 'entrar');
    await page.getByRole('button', { name: 'Entrar' }).click();
    // The form is named as its first field is: the field is looked for inside the form.
    const nova = page.getByRole('form', { name: 'Nova senha' });
    await nova.getByLabel('Nova senha', { exact: true }).fill('uma senha longa de verdade');
    await nova.getByLabel('Repita a nova senha').fill('uma senha longa de verdade');
    await page.getByRole('button', { name: 'Salvar senha e entrar' }).click();
    await page.waitForURL(`${app.url}/console/lotes`);
    const cookie = (await page.context().cookies()).find((c) => c.name === COOKIE_SESSAO)!;
    expect({ httpOnly: cookie.httpOnly, secure: cookie.secure, sameSite: cookie.sameSite, path: cookie.path }).toEqual({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/console',
    });
  });

  it('creates an API key, shown once, that works against the API', async () => {
    await page.goto(`${app.url}/console/integracao`);
    await page.getByLabel('Tipo').selectOption('api-key');
    await page.getByRole('checkbox', { name: /^fiscal/ }).check();
    await page.getByRole('checkbox', { name: /^operacao/ }).check();
    await page.getByRole('button', { name: 'Criar credencial' }).click();
    chave = await page.getByLabel('Chave da API').inputValue();
    expect(chave).toMatch(/^fk_hml_/);
    await capturar(page, 'integracao-chave-criada');
    expect((await integrador('GET', '/v1/fiscal/status')).status).toBe(200);
    // Shown once: the list names the key by its hint only.
    await page.goto(`${app.url}/console/integracao`);
    expect(await page.content()).not.toContain(chave);
    await capturar(page, 'integracao');
    // What the integrator sets up with it; the certificate is the office's job, in the panel.
    const conf = await integrador('PUT', '/v1/fiscal/configuracao', {
      inscricao_estadual: '110042490114',
      regime_tributario: 3,
      rntrc: '12345678',
      serie_cte: 1,
      endereco: ENDERECO_SP,
    });
    expect(conf.status).toBe(200);
    const motorista = await integrador('POST', '/v1/fiscal/motoristas', MOTORISTA_REPASSE_MANUAL);
    expect(motorista.status).toBe(201);
    expect((await integrador('POST', '/v1/fiscal/veiculos', { placa: PLACA })).status).toBe(201);
    const regra = await integrador('POST', '/v1/fiscal/regras-tributacao', {
      uf_origem: 'SP',
      uf_destino: 'RJ',
      icms: { cst: '00', aliquota: 12 },
    });
    expect(regra.status).toBe(201);
  });

  it('uploads the A1 certificate and shows its metadata', async () => {
    await page.goto(`${app.url}/console/configuracao`);
    const a1 = makeA1({ cnpj: empresa.cnpj, razao: 'TRANSPORTES PAINEL LTDA', password: 'senha-a1', cnpjIn: 'otherName' });
    await page
      .getByLabel('Arquivo do certificado (.pfx ou .p12)')
      .setInputFiles({ name: 'empresa.pfx', mimeType: 'application/x-pkcs12', buffer: a1.pfx });
    await page.getByLabel('Senha do certificado').fill('senha-a1');
    await page.getByRole('button', { name: 'Enviar certificado' }).click();
    await page.waitForURL(/\/console\/configuracao/);
    await capturar(page, 'configuracao-certificado');
    const atual = page.getByLabel('Certificado atual');
    await expect(atual.textContent()).resolves.toContain(empresa.cnpj);
    await expect(atual.textContent()).resolves.toContain('TRANSPORTES PAINEL LTDA');
    // The API sees the certificate the panel received.
    const cert = await integrador('GET', '/v1/fiscal/certificado');
    expect(cert.status).toBe(200);
  });

  it('follows a batch to its end, live', async () => {
    const contratante = randomCnpj();
    const chaves = [await receberCteDoContratante(empresa, contratante), await receberCteDoContratante(empresa, contratante)];
    const posted = await integrador('POST', '/v1/fiscal/cte-subcontratacao/lote', {
      subcontratada: { cnpj: empresa.cnpj },
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      ctes: chaves.map((chave) => ({ chave, valor: 300 })),
    });
    expect(posted.status).toBe(202);
    loteId = posted.body.data.batch_id as string;
    await page.goto(`${app.url}/console/lotes`);
    await page.locator(`a[href="/console/lotes/${loteId}"]`).click();
    await page.waitForURL(`${app.url}/console/lotes/${loteId}`);
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe('Em processamento');
    await capturar(page, 'lote-em-processamento');
    let navegacoes = 0;
    page.on('framenavigated', () => navegacoes++);
    // Now the installments can be registered and the batch can end: the open page follows it without a reload.
    const p = app.running.platform;
    payout = new DirectTransport(p.store, p.pool);
    await payout.start(
      payoutProcessor(payoutHandlers({ store: p.store, readYourWrites: p.readYourWrites, clock: p.clock, rail: railInterno })),
    );
    await page.getByRole('heading', { name: 'Lote concluído' }).waitFor({ timeout: 120_000 });
    expect(navegacoes).toBe(0);
    await capturar(page, 'lote-concluido');
    await expect(page.locator('#progresso').getAttribute('hx-trigger')).resolves.toBeNull();
    const link = page.locator('a[href^="/console/cte/"]').first();
    contraCteId = (await link.getAttribute('href'))!.split('/').pop()!;
  });

  it("releases an installment of the batch's counter-CT-e", async () => {
    // The driver's document is scanned (bipagem) at the dock, through the API; the office releases the installment.
    let bipado = await integrador('POST', `/v1/carriers/parcelas-repasse/${contraCteId}/bipagem`);
    for (let i = 0; i < 200 && bipado.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      bipado = await integrador('POST', `/v1/carriers/parcelas-repasse/${contraCteId}/bipagem`);
    }
    expect(bipado.status).toBe(200);
    const posicao = bipado.body.data.parcelas[0].posicao as number;
    await page.goto(`${app.url}/console/lotes/${loteId}`);
    await page.locator('a[href^="/console/parcelas?documento="]').first().click();
    await page.waitForURL(/\/console\/parcelas\?documento=/);
    await page.getByRole('button', { name: `Liberar parcela ${posicao}` }).click();
    await page.getByRole('button', { name: `Pagar parcela ${posicao}` }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toContain(`Parcela ${posicao} liberada.`);
    await capturar(page, 'parcelas');
    const doc = await integrador('GET', `/v1/carriers/parcelas-repasse/${contraCteId}`);
    expect((doc.body.data.parcelas as { posicao: number; situacao: string }[]).find((p) => p.posicao === posicao)!.situacao).toBe(
      'liberada',
    );
  });

  it("shows another company's user none of it", async () => {
    expect(loteId).not.toBe('');
    expect(contraCteId).not.toBe('');
    const nav = await sessaoDe(app, outra, 'admin');
    const { context, page: alheia, queixas: q } = await novaPagina(browser);
    await entrarComCookie(context, app.url, nav.cookies.get(COOKIE_SESSAO)!);
    for (const path of ['/console/lotes', '/console/cte', '/console/caixa-de-entrada', '/console']) {
      await alheia.goto(`${app.url}${path}`);
      const html = await alheia.content();
      expect({ path, lote: html.includes(loteId), cte: html.includes(contraCteId) }).toEqual({ path, lote: false, cte: false });
    }
    for (const path of [`/console/lotes/${loteId}`, `/console/cte/${contraCteId}`, `/console/parcelas?documento=${contraCteId}`]) {
      const res = await alheia.goto(`${app.url}${path}`);
      expect({ path, status: res?.status() }).toEqual({ path, status: 404 });
    }
    await capturar(alheia, 'outra-empresa-404');
    expect(q.filter((x) => !x.includes('status of 404'))).toEqual([]);
    await context.close();
  });

  it('is usable on a phone screen', async () => {
    const nav = await sessaoDe(app, empresa, 'operador');
    const { context, page: celular } = await novaPagina(browser, { celular: true });
    await entrarComCookie(context, app.url, nav.cookies.get(COOKIE_SESSAO)!);
    for (const [path, nome] of [
      [`/console/lotes/${loteId}`, 'lote-celular'],
      ['/console', 'inicio-celular'],
    ] as const) {
      await celular.goto(`${app.url}${path}`);
      expect(await celular.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await capturar(celular, nome);
    }
    await context.close();
  });
});
