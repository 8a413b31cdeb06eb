import { DirectTransport } from '@frete/platform';
import { payoutHandlers, payoutProcessor } from '@frete/payout-processor';
import { railInterno } from '@frete/adapters';
import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { emissora } from '../support/emissora';
import { MOTORISTA_CPF, MOTORISTA_REPASSE_MANUAL, PLACA, receberCteDoContratante } from '../support/lote';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { type NavegadorHttp, sessaoDe } from '../support/console';

const LOTE = '/v1/fiscal/cte-subcontratacao/lote';
const PARCELAS = '/v1/carriers/parcelas-repasse';

/** A valid CIOT declaration in the name of `cnpj` (as test/api/ciot.test.ts). */
const declaracaoCiot = (cnpj: string) => ({
  contratado: { documento: cnpj },
  carga: { tipo: 'lotacao', peso_kg: 12000 },
  rota: { origem: { municipio: 'campinas', uf: 'SP' }, destino: { municipio: 'Rio de Janeiro', uf: 'RJ', codigo_ibge: '3304557' } },
  veiculos: [{ placa: 'ABC-1D23', rntrc: '12345678' }],
  documentos_fiscais: [
    {
      chave: nfeKey('11222333000181', 4242),
      remetente: { documento: '11.222.333/0001-81', nome: 'REMETENTE LTDA' },
      destinatario: { documento: '529.982.247-25', nome: 'JOSE' },
    },
  ],
  valores: { frete: 1500.5 },
  motorista: { cpf: '529.982.247-25', nome: 'JOAO MOTORISTA' },
});

/** Issue 18, point 4: the operations pages (batches with live progress, installments, CIOT, toll passes). */
describe('console: operations (/console/lotes, /parcelas, /ciot, /vale-pedagio)', () => {
  jest.setTimeout(180_000);
  let app: TestApp;
  let sub: TestCarrier;
  let outra: TestCarrier;
  let payout: DirectTransport | null = null;
  let batchId = '';
  let counterCteIds: string[] = [];

  beforeAll(async () => {
    // No payout processor at first: the batch's rows are authorized but the batch stays processing until it starts.
    app = await startTestApp({
      SERVICES: 'api,projector,emission-processor',
      RATE_LIMIT_FISCAL_PER_MIN: '100000',
      RATE_LIMIT_IP_PER_MIN: '100000',
    });
    sub = await emissora(app, 'SUBCONTRATADA TRANSPORTES LTDA', ['fiscal', 'operacao']);
    const m = await sub.call('POST', '/v1/fiscal/motoristas', MOTORISTA_REPASSE_MANUAL);
    expect(m.status).toBe(201);
    expect((await sub.call('POST', '/v1/fiscal/veiculos', { placa: PLACA })).status).toBe(201);
    const regra = await sub.call('POST', '/v1/fiscal/regras-tributacao', {
      uf_origem: 'SP',
      uf_destino: 'SP',
      icms: { cst: '00', aliquota: 12 },
    });
    expect(regra.status).toBe(201);
    outra = await app.carrier({ name: 'OUTRA TRANSPORTES LTDA', scopes: ['fiscal', 'operacao'] });
  });
  afterAll(async () => {
    await payout?.stop();
    await app?.close();
  });

  const iniciarPayout = async () => {
    const p = app.running.platform;
    payout = new DirectTransport(p.store, p.pool);
    await payout.start(
      payoutProcessor(payoutHandlers({ store: p.store, readYourWrites: p.readYourWrites, clock: p.clock, rail: railInterno })),
    );
  };

  const fragmento = (nav: NavegadorHttp) => nav.get(`/console/lotes/${batchId}/progresso`, { 'hx-request': 'true' });

  describe('batches', () => {
    it('lists the batch and shows its progress live: the fragment polls while running and stops once the batch is finished', async () => {
      const contratante = randomCnpj();
      const chaves = [await receberCteDoContratante(sub, contratante), await receberCteDoContratante(sub, contratante)];
      const posted = await sub.call('POST', LOTE, {
        subcontratada: { cnpj: sub.cnpj },
        motorista: { cpf: MOTORISTA_CPF },
        placa: PLACA,
        ctes: chaves.map((chave) => ({ chave, valor: 300 })),
      });
      expect(posted.status).toBe(202);
      batchId = posted.body.data.batch_id as string;

      const nav = await sessaoDe(app, sub, 'leitura');
      const lista = await nav.get('/console/lotes');
      expect(lista.status).toBe(200);
      expect(lista.html).toContain(`href="/console/lotes/${batchId}"`);
      expect(lista.html).toContain('Em processamento');

      const pagina = await nav.get(`/console/lotes/${batchId}`);
      expect(pagina.status).toBe(200);
      expect(pagina.html).toContain('<progress');
      expect(pagina.html).toMatch(/<label for="barra-progresso">Progresso do lote: \d+ de 2/);
      expect(pagina.html).toContain(`href="/console/lotes/${batchId}/relatorio.json"`);
      expect(pagina.html).toContain(`hx-get="/console/lotes/${batchId}/progresso"`);
      expect(pagina.html).toContain('hx-trigger="every 2s"');
      expect(pagina.html).toContain('hx-swap="outerHTML"');

      // Authorized, payout not registered yet: a row is emitted with its payout's outcome (issue 27), so both rows are
      // still pending, the decider has not finished the batch, and the fragment keeps polling.
      const autorizado = async (id: string) => (await sub.call('GET', `/v1/fiscal/cte/${id}`)).body.data?.situacao === 'autorizado';
      let ids: string[] = [];
      for (let i = 0; i < 300; i++) {
        const rows = (await sub.call('GET', `${LOTE}/${batchId}`)).body.data.rows as { counter_cte_id: string | null }[];
        ids = rows.map((r) => r.counter_cte_id).filter((id): id is string => id !== null);
        if (ids.length === 2 && (await autorizado(ids[0]!)) && (await autorizado(ids[1]!))) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(ids).toHaveLength(2);
      let f = await fragmento(nav);
      expect(f.status).toBe(200);
      expect(f.html).not.toContain('<!doctype');
      expect(f.html).toMatch(/^<section id="progresso"/);
      expect((f.html.match(/<td[^>]*>Aguardando autorização e repasse<\/td>/g) ?? []).length).toBe(2);
      expect(f.html).not.toMatch(/<td[^>]*>Emitido<\/td>/);
      expect(f.html).toContain('hx-trigger="every 2s"');
      expect(f.html).toContain('Em processamento');

      await iniciarPayout();
      for (let i = 0; i < 600 && f.html.includes('hx-trigger'); i++) {
        await new Promise((res) => setTimeout(res, 100));
        f = await fragmento(nav);
      }
      expect(f.html).not.toContain('hx-trigger');
      expect(f.html).not.toContain('hx-get');
      expect(f.html).toContain('<h2>Lote concluído</h2>');
      expect((f.html.match(/<td[^>]*>Emitido<\/td>/g) ?? []).length).toBe(2);
      expect(f.html).toMatch(/Progresso do lote: 2 de 2 \(100%\)/);
      counterCteIds = [...f.html.matchAll(/href="\/console\/cte\/([0-9a-f-]{36})"/g)].map((x) => x[1]!);
      expect(counterCteIds).toHaveLength(2);
      for (const chave of chaves) expect(f.html).toContain(chave);

      const api = (await sub.call('GET', `${LOTE}/${batchId}`)).body.data;
      expect(api.status).not.toBe('processing');
      expect(api.rows.map((r: { counter_cte_id: string }) => r.counter_cte_id).sort()).toEqual([...counterCteIds].sort());

      // The list's filter by situation, and a row page past the last showing the last.
      expect((await nav.get('/console/lotes?situacao=processing')).html).not.toContain(batchId);
      expect((await nav.get(`/console/lotes?situacao=${api.status as string}`)).html).toContain(`href="/console/lotes/${batchId}"`);
      expect((await nav.get('/console/lotes?situacao=toString')).status).toBe(200);
      const alem = await nav.get(`/console/lotes/${batchId}?pagina=7`);
      expect(alem.status).toBe(200);
      for (const chave of chaves) expect(alem.html).toContain(chave);

      const relatorio = await nav.get(`/console/lotes/${batchId}/relatorio.json`);
      expect(relatorio.status).toBe(200);
      expect(relatorio.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(relatorio.html)).toMatchObject({ batch_id: batchId, status: api.status, progress: api.progress });
    });

    it('a finished batch says whether rows failed, and why in Portuguese (the code and the English message as a detail)', async () => {
      const contratante = randomCnpj();
      const naoRecebida = () => buildCteXml({ emitenteCnpj: contratante, nfeChaves: [nfeKey()] }).chave;
      const postar = async (chaves: string[]) => {
        const r = await sub.call('POST', LOTE, {
          subcontratada: { cnpj: sub.cnpj },
          motorista: { cpf: MOTORISTA_CPF },
          placa: PLACA,
          ctes: chaves.map((chave) => ({ chave, valor: 300 })),
        });
        expect(r.status).toBe(202);
        return r.body.data.batch_id as string;
      };
      const nav = await sessaoDe(app, sub, 'leitura');
      const final = async (id: string) => {
        for (let i = 0; i < 600; i++) {
          const f = await nav.get(`/console/lotes/${id}/progresso`, { 'hx-request': 'true' });
          if (!f.html.includes('hx-trigger')) return f.html;
          await new Promise((res) => setTimeout(res, 100));
        }
        throw new Error('batch did not finish');
      };

      const falhou = await postar([naoRecebida(), naoRecebida()]);
      const todas = await final(falhou);
      expect((await sub.call('GET', `${LOTE}/${falhou}`)).body.data.status).toBe('failed');
      expect(todas).toContain('<h2>Lote falhou (2 de 2 linhas com erro)</h2>');
      expect(todas).not.toContain('Lote concluído');
      expect(todas).toContain('O CT-e da contratante não está na caixa de entrada.');
      expect(todas).toMatch(/<small class="detalhe-suporte">\(cte_nao_recebido: [^<]+\)<\/small>/);
      const pagina = await nav.get(`/console/lotes/${falhou}`);
      expect(pagina.html).toContain('<dd>Lote falhou (2 de 2 linhas com erro)</dd>');

      const misto = await postar([await receberCteDoContratante(sub, contratante), naoRecebida()]);
      const parte = await final(misto);
      expect((await sub.call('GET', `${LOTE}/${misto}`)).body.data.status).toBe('done');
      expect(parte).toContain('<h2>Lote concluído com falhas (1 de 2)</h2>');
      const lista = await nav.get('/console/lotes');
      expect(lista.html).toContain('Lote concluído com falhas (1 de 2)');
      expect(lista.html).toContain('Lote falhou (2 de 2 linhas com erro)');
    });

    it("another company's batch is a 404 page and never listed; a malformed id is 404 too", async () => {
      const nav = await sessaoDe(app, outra, 'admin');
      expect((await nav.get('/console/lotes')).html).not.toContain(batchId);
      for (const path of [`/console/lotes/${batchId}`, `/console/lotes/${batchId}/progresso`, `/console/lotes/${batchId}/relatorio.json`]) {
        const res = await nav.get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      }
      expect((await nav.get('/console/lotes/nao-e-um-id')).status).toBe(404);
      expect((await nav.get('/console/lotes?cursor=lixo')).status).toBe(400);
    });
  });

  describe('installments', () => {
    // The batch's two documents of one driver at his 70/30 rule: each is a whole installment (ruling 14), one at each position.
    const docs: { documento: string; posicao: number }[] = [];
    const situacao = async (d: { documento: string; posicao: number }) =>
      ((await sub.call('GET', `${PARCELAS}/${d.documento}`)).body.data.parcelas as { posicao: number; situacao: string }[]).find(
        (p) => p.posicao === d.posicao,
      )!.situacao;

    beforeAll(async () => {
      for (const documento of counterCteIds) {
        for (let i = 0; i < 200 && (await sub.call('GET', `${PARCELAS}/${documento}`)).status !== 200; i++)
          await new Promise((res) => setTimeout(res, 50));
        const bipado = await sub.call('POST', `${PARCELAS}/${documento}/bipagem`);
        expect(bipado.status).toBe(200);
        docs.push({ documento, posicao: bipado.body.data.parcelas[0].posicao as number });
      }
    });

    it('release and pay through the forms; the API then shows the new state', async () => {
      const a = docs[0]!;
      const nav = await sessaoDe(app, sub, 'operador');
      let pagina = await nav.get(`/console/parcelas?documento=${a.documento}`);
      expect(pagina.status).toBe(200);
      expect(pagina.html).toContain('<caption>Parcelas do repasse</caption>');
      expect(pagina.html).toContain('R$ 300,00');
      expect(pagina.html).toContain(`aria-label="Liberar parcela ${a.posicao}"`);
      expect(pagina.html).not.toContain(`aria-label="Pagar parcela ${a.posicao}"`);

      const liberada = await nav.post('/console/parcelas/liberar', { documento: a.documento, posicao: String(a.posicao) });
      expect(liberada.status).toBe(303);
      expect(liberada.headers.get('location')).toMatch(/^\/console\/parcelas\?documento=/);
      expect(await situacao(a)).toBe('liberada');

      pagina = await nav.get(liberada.headers.get('location')!);
      expect(pagina.html).toContain(`Parcela ${a.posicao} liberada.`);
      expect(pagina.html).toContain(`aria-label="Pagar parcela ${a.posicao}"`);
      expect(pagina.html).not.toContain(`aria-label="Liberar parcela ${a.posicao}"`);

      const paga = await nav.post('/console/parcelas/pagar', { documento: a.documento, posicao: String(a.posicao) });
      expect(paga.status).toBe(303);
      expect(['pagamento_solicitado', 'paga']).toContain(await situacao(a));
      pagina = await nav.get(paga.headers.get('location')!);
      expect(pagina.html).toMatch(/<td[^>]*>(Pagamento solicitado|Paga)<\/td>/);
      expect(pagina.html).not.toMatch(/aria-label="(Liberar|Pagar) parcela/);

      // A refusal of the decider (released twice) is a 422 page with its reason.
      const recusa = await nav.post('/console/parcelas/liberar', { documento: a.documento, posicao: String(a.posicao) });
      expect(recusa.status).toBe(422);
      expect(recusa.html).toContain('parcela_ja_liberada');
      expect(recusa.html).toContain('Esta parcela já foi liberada.');
      // Bad input: 400, not a 5xx.
      expect((await nav.post('/console/parcelas/liberar', { documento: a.documento, posicao: '9' })).status).toBe(400);
      expect((await nav.post('/console/parcelas/pagar', { posicao: '1' })).status).toBe(400);
    });

    it('leitura sees no buttons and gets 403 on release and pay; a POST without the form token is 403', async () => {
      const b = docs[1]!;
      const leitura = await sessaoDe(app, sub, 'leitura');
      const pagina = await leitura.get(`/console/parcelas?documento=${b.documento}`);
      expect(pagina.status).toBe(200);
      expect(pagina.html).toMatch(/<td[^>]*>Pendente<\/td>/);
      expect(pagina.html).not.toMatch(/aria-label="(Liberar|Pagar) parcela/);
      expect(pagina.html).not.toContain('action="/console/parcelas/');
      for (const acao of ['liberar', 'pagar'])
        expect((await leitura.post(`/console/parcelas/${acao}`, { documento: b.documento, posicao: String(b.posicao) })).status).toBe(403);
      expect(await situacao(b)).toBe('pendente');

      const admin = await sessaoDe(app, sub, 'admin');
      expect((await admin.get(`/console/parcelas?documento=${b.documento}`)).html).toContain(`aria-label="Liberar parcela ${b.posicao}"`);
      const semToken = await admin.post('/console/parcelas/liberar', { _csrf: '', documento: b.documento, posicao: String(b.posicao) });
      expect(semToken.status).toBe(403);
      expect(await situacao(b)).toBe('pendente');
    });

    it("lists the installments by due date, in dd/mm/aaaa, filtered by situation and due date, never another company's", async () => {
      const [a, b] = [docs[0]!, docs[1]!];
      const nav = await sessaoDe(app, sub, 'leitura');
      const lista = await nav.get('/console/parcelas');
      expect(lista.status).toBe(200);
      expect(lista.html).toContain('<caption>Parcelas da empresa, do vencimento mais próximo</caption>');
      expect(lista.html).toContain('2 parcelas encontradas.');
      // a was released (due today, dias 0); b was not: a first, b (no due date) last.
      const linkA = lista.html.indexOf(`href="/console/parcelas?documento=${a.documento}"`);
      const linkB = lista.html.indexOf(`href="/console/parcelas?documento=${b.documento}"`);
      expect(linkA).toBeGreaterThan(-1);
      expect(linkB).toBeGreaterThan(linkA);
      const api = (await sub.call('GET', `${PARCELAS}?per_page=100`)).body.data as { counter_cte_id: string; vencimento: string | null }[];
      const vencimento = api.find((p) => p.counter_cte_id === a.documento)!.vencimento!;
      const [y, m, d] = vencimento.split('-');
      expect(lista.html).toContain(`>${d}/${m}/${y}</td>`);
      // Dates in one format: no ISO day in what the page shows (links and the date field's value aside).
      const visivel = lista.html.replace(/<[^>]*>/g, ' ');
      expect(visivel).not.toMatch(/\d{4}-\d{2}-\d{2}/);

      const pendentes = await nav.get('/console/parcelas?situacao=pendente');
      expect(pendentes.html).toContain('1 parcela encontrada.');
      expect(pendentes.html).toContain(`documento=${b.documento}"`);
      expect(pendentes.html).not.toContain(`documento=${a.documento}"`);
      const ate = await nav.get(`/console/parcelas?vencimento_ate=${d}%2F${m}%2F${y}`);
      expect(ate.html).toContain('1 parcela encontrada.');
      expect(ate.html).toContain(`value="${d}/${m}/${y}"`);
      expect((await nav.get('/console/parcelas?vencimento_ate=2000-01-01')).html).toContain('Nenhuma parcela encontrada.');
      const errado = await nav.get('/console/parcelas?vencimento_ate=31%2F02%2F2026');
      expect(errado.status).toBe(400);
      expect(errado.html).toContain('Vencimento até: informe uma data válida (dd/mm/aaaa).');
      expect((await nav.get('/console/parcelas?situacao=vencida')).status).toBe(400);
      expect((await nav.get('/console/parcelas?cursor=lixo')).html).toContain('O link de página não é válido');

      const outraEmpresa = await sessaoDe(app, outra, 'leitura');
      const alheia = await outraEmpresa.get('/console/parcelas');
      expect(alheia.html).toContain('Nenhuma parcela encontrada.');
      expect(alheia.html).not.toContain(a.documento);
    });

    it("another company's installment is a 404 page, to read or to act on", async () => {
      const b = docs[1]!;
      const nav = await sessaoDe(app, outra, 'admin');
      expect((await nav.get(`/console/parcelas?documento=${b.documento}`)).status).toBe(404);
      await nav.get('/console/parcelas');
      expect((await nav.post('/console/parcelas/liberar', { documento: b.documento, posicao: String(b.posicao) })).status).toBe(404);
      expect(await situacao(b)).toBe('pendente');
      expect((await nav.get('/console/parcelas?documento=nada')).status).toBe(404);
    });
  });

  describe('CIOT and toll passes', () => {
    it('the CIOT page lists what the API lists, with its detail; never another company’s', async () => {
      const vazio = await sessaoDe(app, outra, 'leitura');
      expect((await vazio.get('/console/ciot')).html).toContain('Nenhuma operação CIOT ainda.');

      const r = await sub.call('POST', '/v1/fiscal/ciot', declaracaoCiot(sub.cnpj));
      expect(r.status).toBe(201);
      const id = r.body.data.id as string;
      const nav = await sessaoDe(app, sub, 'leitura');
      const lista = await nav.get('/console/ciot');
      expect(lista.status).toBe(200);
      expect(lista.html).toContain(`href="/console/ciot/${id}"`);
      expect(lista.html).toContain(r.body.data.ciot as string);
      expect(lista.html).toContain('R$ 1.500,50');
      const detalhe = await nav.get(`/console/ciot/${id}`);
      expect(detalhe.status).toBe(200);
      expect(detalhe.html).toContain('Registrada');
      expect(detalhe.html).toContain(r.body.data.codigo_verificacao as string);

      expect((await vazio.get('/console/ciot')).html).not.toContain(id);
      expect((await vazio.get(`/console/ciot/${id}`)).status).toBe(404);
    });

    it('the toll pass page shows the balance, the statement and the toll passes the API lists; never another company’s', async () => {
      expect((await sub.call('POST', '/v1/conta-operacional/creditos', { valor: 5000, referencia: 'DEP-CONSOLE' })).status).toBe(201);
      const v = await sub.call('POST', '/v1/vale-pedagio', {
        origem: { municipio: 'Campinas', uf: 'SP' },
        destino: { municipio: 'rio de janeiro', uf: 'RJ' },
        categoria: '07',
        placa: 'ABC-1D23',
        tipo: 'TAG',
      });
      expect(v.status).toBe(201);
      const vale = v.body.data as { id: string; numero: string; valor_total: number };
      const saldo = (await sub.call('GET', '/v1/conta-operacional')).body.data.saldo as number;

      const nav = await sessaoDe(app, sub, 'leitura');
      const pagina = await nav.get('/console/vale-pedagio');
      expect(pagina.status).toBe(200);
      expect(pagina.html).toContain(`href="/console/vale-pedagio/${vale.id}"`);
      expect(pagina.html).toContain(vale.numero);
      const brl = (reais: number) =>
        `R$ ${Math.floor(reais)
          .toString()
          .replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${String(Math.round(reais * 100) % 100).padStart(2, '0')}`;
      expect(pagina.html).toContain(brl(saldo));
      expect(pagina.html).toContain(brl(vale.valor_total));

      const extrato = await nav.get('/console/vale-pedagio/extrato');
      expect(extrato.status).toBe(200);
      expect(extrato.html).toContain('DEP-CONSOLE');
      expect(extrato.html).toContain('R$ 5.000,00');
      expect(extrato.html).toContain(`− ${brl(vale.valor_total)}`);

      const detalhe = await nav.get(`/console/vale-pedagio/${vale.id}`);
      expect(detalhe.status).toBe(200);
      expect(detalhe.html).toContain('<caption>Praças de pedágio</caption>');

      const estranho = await sessaoDe(app, outra, 'admin');
      const dela = await estranho.get('/console/vale-pedagio');
      expect(dela.html).not.toContain(vale.id);
      expect(dela.html).toContain('Nenhum vale-pedágio ainda.');
      expect(dela.html).toContain('R$ 0,00');
      expect((await estranho.get('/console/vale-pedagio/extrato')).html).not.toContain('DEP-CONSOLE');
      expect((await estranho.get(`/console/vale-pedagio/${vale.id}`)).status).toBe(404);
    });
  });
});
