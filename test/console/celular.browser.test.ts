import { type Browser, type Page } from 'playwright-core';
import { COOKIE_SESSAO } from '@frete/console';
import { type ParcelaRepasse } from '@frete/contracts';
import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { sessaoDe } from '../support/console';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { emissora } from '../support/emissora';
import { MOTORISTA_CPF, PLACA } from '../support/lote';
import { contraCteAutorizado } from '../support/repasse';
import { abrirNavegador, capturar, describeNavegador, entrarComCookie, novaPagina } from '../support/navegador';

const LARGURA = 375;
const R602020: ParcelaRepasse[] = [
  { posicao: 1, percentual: 60, dias: 0 },
  { posicao: 2, percentual: 20, dias: 10 },
  { posicao: 3, percentual: 20, dias: 30 },
];

/** How wide the page and each table are, and whether a table region scrolls sideways. */
const larguras = (page: Page) =>
  page.evaluate(() => ({
    pagina: document.documentElement.scrollWidth,
    tabelas: Array.from(document.querySelectorAll('.tabela')).map((t) => ({
      largura: Math.round((t.querySelector('table') ?? t).getBoundingClientRect().width),
      rolagem: t.scrollWidth > t.clientWidth + 1,
    })),
  }));

/** Issue 28, point 6: a batch's rows and the installments read on a 375 px phone, one card per row. */
describeNavegador('the panel on a 375 px phone', () => {
  jest.setTimeout(180_000);
  let app: TestApp;
  let sub: TestCarrier;
  let browser: Browser;
  let loteId = '';

  beforeAll(async () => {
    [app, browser] = await Promise.all([startTestApp(), abrirNavegador()]);
    sub = await emissora(app, 'TRANSPORTADORA DE NOME BEM COMPRIDO PARA O CABECALHO LTDA', ['fiscal', 'operacao']);
    const m = await sub.call('POST', '/v1/fiscal/motoristas', {
      cpf: MOTORISTA_CPF,
      nome: 'JOAO MOTORISTA',
      repasse: { modo: 'automatico' },
    });
    expect(m.status).toBe(201);
    expect((await sub.call('POST', '/v1/fiscal/veiculos', { placa: PLACA })).status).toBe(201);
    // A batch of keys never received: every row fails, with the longest texts a row has (the reason and its detail).
    const contratante = randomCnpj();
    const posted = await sub.call('POST', '/v1/fiscal/cte-subcontratacao/lote', {
      subcontratada: { cnpj: sub.cnpj },
      motorista: { cpf: MOTORISTA_CPF },
      placa: PLACA,
      ctes: [1, 2, 3].map(() => ({ chave: buildCteXml({ emitenteCnpj: contratante, nfeChaves: [nfeKey()] }).chave, valor: 300 })),
    });
    expect(posted.status).toBe(202);
    loteId = posted.body.data.batch_id as string;
    for (let i = 0; i < 300; i++) {
      if ((await sub.call('GET', `/v1/fiscal/cte-subcontratacao/lote/${loteId}`)).body.data.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Installments to list: a counter-CT-e split 60/20/20, scanned.
    const doc = await contraCteAutorizado(app, sub, { cpf: MOTORISTA_CPF, valor_centavos: 123_456, parcelas: R602020 });
    let bipado = await sub.call('POST', `/v1/carriers/parcelas-repasse/${doc.cte_id}/bipagem`);
    for (let i = 0; i < 200 && bipado.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      bipado = await sub.call('POST', `/v1/carriers/parcelas-repasse/${doc.cte_id}/bipagem`);
    }
    expect(bipado.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function celular() {
    const nav = await sessaoDe(app, sub, 'operador');
    const aberta = await novaPagina(browser, { celular: true });
    await aberta.page.setViewportSize({ width: LARGURA, height: 812 });
    await entrarComCookie(aberta.context, app.url, nav.cookies.get(COOKIE_SESSAO)!);
    return aberta;
  }

  it("shows a failed batch's rows as cards within the screen, its heading saying it failed, the reasons in Portuguese", async () => {
    const { context, page, queixas } = await celular();
    await page.goto(`${app.url}/console/lotes/${loteId}`);
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe('Lote falhou (3 de 3 linhas com erro)');
    await expect(page.locator('.empresa').textContent()).resolves.toContain('TRANSPORTADORA DE NOME BEM COMPRIDO');
    const w = await larguras(page);
    expect(w.pagina).toBeLessThanOrEqual(LARGURA);
    expect(w.tabelas.length).toBeGreaterThan(0);
    for (const t of w.tabelas) expect(t).toEqual({ largura: expect.any(Number), rolagem: false });
    for (const t of w.tabelas) expect(t.largura).toBeLessThanOrEqual(LARGURA);
    // Each cell says which column it is: the header row is out of sight, the labels are on the cards.
    const celula = page.locator('#progresso td[data-rotulo="Contra-CT-e ou erro"]').first();
    await expect(celula.textContent()).resolves.toContain('O CT-e da contratante não está na caixa de entrada.');
    await expect(celula.evaluate((td) => getComputedStyle(td, '::before').content)).resolves.toBe('"Contra-CT-e ou erro: "');
    await expect(page.locator('#progresso thead').boundingBox()).resolves.toMatchObject({ width: 1, height: 1 });
    // The English detail is there for support, smaller than the text.
    const tamanho = (sel: string) => celula.locator(sel).evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(await tamanho('.detalhe-suporte')).toBeLessThan(await celula.evaluate((e) => parseFloat(getComputedStyle(e).fontSize)));
    expect(queixas).toEqual([]);
    await capturar(page, 'lote-falhou-375');
    await context.close();
  });

  it('lists the installments by due date as cards within the screen, dates as dd/mm/aaaa', async () => {
    const { context, page, queixas } = await celular();
    await page.goto(`${app.url}/console/parcelas`);
    await page.getByRole('heading', { level: 2, name: 'Parcelas por vencimento' }).waitFor();
    const w = await larguras(page);
    expect(w.pagina).toBeLessThanOrEqual(LARGURA);
    for (const t of w.tabelas) expect(t.rolagem).toBe(false);
    const datas = await page.locator('td[data-rotulo="Vencimento"]').allTextContents();
    expect(datas).toHaveLength(3);
    expect(datas[0]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(datas[2]).toBe('—');
    expect(queixas).toEqual([]);
    await capturar(page, 'parcelas-375');
    await context.close();
  });

  it('passes axe-core (WCAG 2 A/AA) on the cards at 375 px: the failed rows and the installments', async () => {
    const nav = await sessaoDe(app, sub, 'operador');
    // axe is injected into the page, so this context alone sets the CSP aside.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: LARGURA, height: 812 }, locale: 'pt-BR' });
    await entrarComCookie(context, app.url, nav.cookies.get(COOKIE_SESSAO)!);
    const page = await context.newPage();
    for (const path of [`/console/lotes/${loteId}`, '/console/parcelas']) {
      expect((await page.goto(`${app.url}${path}`))?.status()).toBe(200);
      await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      const violacoes = await page.evaluate(async () => {
        type Resultado = { violations: { id: string; nodes: { target: string[] }[] }[] };
        const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<Resultado> } }).axe;
        const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
        return r.violations.map((v) => ({ id: v.id, onde: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
      });
      expect({ path, violacoes }).toEqual({ path, violacoes: [] });
    }
    await context.close();
  });

  it('shows each chart once: its numbers are read, not shown a second time', async () => {
    const { context, page } = await celular();
    await page.goto(`${app.url}/console`);
    const listas = page.locator('.grafico-dados');
    expect(await listas.count()).toBeGreaterThan(0);
    for (const caixa of await Promise.all((await listas.all()).map((l) => l.boundingBox())))
      expect({ largura: caixa!.width <= 1, altura: caixa!.height <= 1 }).toEqual({ largura: true, altura: true });
    // Still in the accessibility tree, under each chart's caption.
    const arvore = await page.locator('figure.grafico').first().ariaSnapshot();
    expect(arvore).toMatch(/listitem/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(LARGURA);
    await capturar(page, 'inicio-375');
    await context.close();
  });
});
