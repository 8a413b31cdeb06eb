import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { type NavegadorHttp, sessaoDe } from '../support/console';
import { cteAutorizado, emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { GRUPOS_LOTACAO } from '../support/mdfe-lotacao';
import { prontaParaMdfe } from '../support/mdfe-frota';

const UUID_DESCONHECIDO = '00000000-0000-4000-8000-000000000000';

/** Issue 18, point 4: the company's documents (CT-e, MDF-e, inbox) and the fiscal indicators in the panel. */
describe('console: documents and indicators', () => {
  let app: TestApp;
  let c: TestCarrier;
  let outra: TestCarrier;
  let leitura: NavegadorHttp;
  let admin: NavegadorHttp;
  let autorizado: { id: string; chave: string };
  let rascunhoId: string;
  let daOutra: { id: string; chave: string };

  /** A download through the panel's session, as bytes. */
  const baixar = async (path: string, nav: NavegadorHttp = leitura) => {
    const cookie = [...nav.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(app.url + path, { headers: { cookie }, redirect: 'manual' });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const baixarApi = async (carrier: TestCarrier, path: string) => {
    const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${carrier.apiKey}` } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    app = await startTestApp();
    c = await emissora(app, 'DOCUMENTOS TRANSPORTES LTDA');
    outra = await emissora(app, 'OUTRA EMISSORA LTDA');
    autorizado = await cteAutorizado(c);
    const r = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    expect(r.status).toBe(201);
    rascunhoId = r.body.data.id as string;
    daOutra = await cteAutorizado(outra);
    const cce = await c.call('POST', `/v1/fiscal/cte/${autorizado.id}/eventos/carta-correcao`, {
      correcoes: [{ grupo: 'compl', campo: 'xObs', valor: 'ENTREGAR NA DOCA 3' }],
    });
    expect(cce.status).toBe(200);
    leitura = await sessaoDe(app, c, 'leitura');
    admin = await sessaoDe(app, c, 'admin');
  });
  afterAll(() => app?.close());

  describe('/console/cte', () => {
    it("lists the company's CT-e, never another company's", async () => {
      const res = await leitura.get('/console/cte');
      expect(res.status).toBe(200);
      expect(res.html).toContain('<caption>CT-e da empresa</caption>');
      expect(res.html).toContain(`href="/console/cte/${autorizado.id}"`);
      expect(res.html).toContain(`href="/console/cte/${rascunhoId}"`);
      expect(res.html).toContain(autorizado.chave);
      expect(res.html).toContain('2 CT-e encontrados.');
      expect(res.html).not.toContain(daOutra.id);
      expect(res.html).not.toContain(daOutra.chave);
    });

    it('filters by situation, dates and key (a GET form)', async () => {
      const aut = await leitura.get('/console/cte?status=autorizado');
      expect(aut.status).toBe(200);
      expect(aut.html).toContain(autorizado.id);
      expect(aut.html).not.toContain(rascunhoId);
      expect(aut.html).toMatch(/<option value="autorizado" selected/);

      const rasc = await leitura.get('/console/cte?status=rascunho');
      expect(rasc.html).toContain(rascunhoId);
      expect(rasc.html).not.toContain(`/console/cte/${autorizado.id}`);

      const porChave = await leitura.get(`/console/cte?chave=${autorizado.chave}`);
      expect(porChave.html).toContain(`/console/cte/${autorizado.id}`);
      expect(porChave.html).toContain('1 CT-e encontrado.');
      expect(porChave.html).not.toContain(`/console/cte/${rascunhoId}`);

      // Another company's key finds nothing here.
      const alheia = await leitura.get(`/console/cte?chave=${daOutra.chave}`);
      expect(alheia.html).toContain('Nenhum CT-e encontrado.');

      const passado = await leitura.get('/console/cte?de=2000-01-01&ate=2000-01-31');
      expect(passado.status).toBe(200);
      expect(passado.html).toContain('Nenhum CT-e encontrado.');
      // Echoed as the panel writes dates (the filter takes either form).
      expect(passado.html).toContain('value="01/01/2000"');
    });

    it('answers 400 with the form and its errors for bad filters or a cursor it did not give', async () => {
      for (const q of ['status=inventado', 'de=2026-02-30', 'de=2026-02-10&ate=2026-02-01', 'chave=123', 'cursor=nao-e-cursor']) {
        const res = await leitura.get(`/console/cte?${q}`);
        expect({ q, status: res.status }).toEqual({ q, status: 400 });
        expect(res.html).toContain('role="alert"');
        expect(res.html).toContain('aria-label="Filtrar CT-e"');
      }
    });

    it('pages with "Próxima página" (the list cursor), keeping the filters', async () => {
      for (let i = 0; i < 20; i++) expect((await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel())).status).toBe(201);
      const primeira = await leitura.get('/console/cte?status=rascunho');
      const m = /<a href="(\/console\/cte\?[^"]*cursor=[^"]+)">Próxima página<\/a>/.exec(primeira.html);
      expect(m).not.toBeNull();
      const href = m![1]!.replace(/&amp;/g, '&');
      expect(href).toContain('status=rascunho');
      const segunda = await leitura.get(href);
      expect(segunda.status).toBe(200);
      const ids = (html: string) => [...html.matchAll(/href="\/console\/cte\/([0-9a-f-]{36})"/g)].map((x) => x[1]);
      expect(ids(primeira.html)).toHaveLength(20);
      expect(ids(segunda.html)).toHaveLength(1);
      expect(ids(segunda.html).some((id) => ids(primeira.html).includes(id))).toBe(false);
      expect(segunda.html).not.toContain('Próxima página');
    });

    it('shows a CT-e: situation, key, number, parties, values, its fiscal events, its history and the downloads', async () => {
      const api = await c.call('GET', `/v1/fiscal/cte/${autorizado.id}`);
      const doc = api.body.data.documento;
      const res = await leitura.get(`/console/cte/${autorizado.id}`);
      expect(res.status).toBe(200);
      expect(res.html).toContain('<strong>Autorizado</strong>');
      expect(res.html).toContain(autorizado.chave);
      expect(res.html).toContain(`${doc.series}/${doc.number}`);
      expect(res.html).toContain(doc.emitente.nome);
      expect(res.html).toContain(doc.protocol.numero);
      const brl = (v: number) =>
        `R$ ${v
          .toFixed(2)
          .replace('.', ',')
          .replace(/\B(?=(\d{3})+(?!\d))/g, '.')}`;
      expect(res.html).toContain(brl(doc.service_value));
      expect(res.html).toContain('<caption>Eventos fiscais</caption>');
      expect(res.html).toContain('Carta de correção');
      expect(res.html).toContain('Registrado');
      expect(res.html).toContain('<caption>Histórico</caption>');
      expect(res.html).toContain('cte.autorizado');
      expect(res.html).toContain(`href="/console/cte/${autorizado.id}/dacte"`);
      expect(res.html).toContain(`href="/console/cte/${autorizado.id}/xml"`);

      const rasc = await leitura.get(`/console/cte/${rascunhoId}`);
      expect(rasc.status).toBe(200);
      expect(rasc.html).toContain('<strong>Rascunho</strong>');
      expect(rasc.html).not.toContain('/dacte"');
    });

    it('downloads the DACTE (PDF) and the authorized XML, the same as the API gives', async () => {
      const dacte = await baixar(`/console/cte/${autorizado.id}/dacte`);
      expect(dacte.status).toBe(200);
      expect(dacte.headers.get('content-type')).toBe('application/pdf');
      expect(dacte.headers.get('content-disposition')).toBe(`inline; filename="${autorizado.chave}-dacte.pdf"`);
      expect(dacte.bytes.subarray(0, 4).toString()).toBe('%PDF');

      const xml = await baixar(`/console/cte/${autorizado.id}/xml`);
      const xmlApi = await baixarApi(c, `/v1/fiscal/cte/${autorizado.id}/xml`);
      expect(xml.status).toBe(200);
      expect(xml.headers.get('content-type')).toBe(xmlApi.headers.get('content-type'));
      expect(xml.headers.get('content-disposition')).toBe(xmlApi.headers.get('content-disposition'));
      expect(xml.bytes.equals(xmlApi.bytes)).toBe(true);
      expect(xml.bytes.toString('utf8')).toContain('<cteProc');
    });

    it("answers the 404 page for an unknown id, a malformed one, another company's CT-e, and a draft's documents", async () => {
      for (const path of [
        `/console/cte/${UUID_DESCONHECIDO}`,
        '/console/cte/nao-e-um-id',
        `/console/cte/${daOutra.id}`,
        `/console/cte/${daOutra.id}/dacte`,
        `/console/cte/${daOutra.id}/xml`,
        `/console/cte/${UUID_DESCONHECIDO}/xml`,
        `/console/cte/${rascunhoId}/dacte`,
        `/console/cte/${rascunhoId}/xml`,
      ]) {
        const res = await baixar(path);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.bytes.toString()).toContain('não encontrado');
        expect(res.bytes.toString()).not.toContain(daOutra.chave);
      }
    });
  });

  describe('/console/mdfe', () => {
    let mdfeId: string;
    let chaveMdfe: string;
    beforeAll(async () => {
      await prontaParaMdfe(c, 7);
      const cte = await cteAutorizado(c);
      const created = await c.call('POST', '/v1/fiscal/mdfe', {
        ctes: [cte.id],
        veiculo: { placa: 'ABC1D23' },
        motoristas: [{ cpf: '529.982.247-25' }],
        ...GRUPOS_LOTACAO,
      });
      expect(created.status).toBe(201);
      mdfeId = created.body.data.id as string;
      expect((await c.call('POST', `/v1/fiscal/mdfe/${mdfeId}/emissao`)).status).toBe(202);
      const done = await pollUntil(c, `/v1/fiscal/mdfe/${mdfeId}/consulta`);
      expect(done.body.data.situacao).toBe('autorizado');
      chaveMdfe = done.body.data.access_key as string;
    });

    it('lists and filters the MDF-e; the page shows its data, events and downloads', async () => {
      const lista = await leitura.get('/console/mdfe');
      expect(lista.status).toBe(200);
      expect(lista.html).toContain(`href="/console/mdfe/${mdfeId}"`);
      const cancelados = await leitura.get('/console/mdfe?status=cancelado');
      expect(cancelados.html).not.toContain(`href="/console/mdfe/${mdfeId}"`);
      expect((await leitura.get('/console/mdfe?status=x')).status).toBe(400);

      const pagina = await leitura.get(`/console/mdfe/${mdfeId}`);
      expect(pagina.status).toBe(200);
      expect(pagina.html).toContain('<strong>Autorizado</strong>');
      expect(pagina.html).toContain(chaveMdfe);
      expect(pagina.html).toContain('ABC1D23');
      expect(pagina.html).toContain('JOAO MOTORISTA');
      expect(pagina.html).toContain('Nenhum evento fiscal.');
      expect(pagina.html).toContain('mdfe.autorizado');

      const enc = await c.call('POST', `/v1/fiscal/mdfe/${mdfeId}/eventos/encerramento`, { municipio: 'Rio de Janeiro', uf: 'RJ' });
      expect(enc.status).toBe(200);
      const encerrado = await leitura.get(`/console/mdfe/${mdfeId}`);
      expect(encerrado.html).toContain('<strong>Encerrado</strong>');
      expect(encerrado.html).toContain('<caption>Eventos fiscais</caption>');
      expect(encerrado.html).toContain('<td>Encerramento</td>');
      expect((await leitura.get('/console/mdfe?status=encerrado')).html).toContain(`href="/console/mdfe/${mdfeId}"`);

      const damdfe = await baixar(`/console/mdfe/${mdfeId}/damdfe`);
      const damdfeApi = await baixarApi(c, `/v1/fiscal/mdfe/${mdfeId}/damdfe`);
      expect(damdfe.status).toBe(200);
      expect(damdfe.headers.get('content-type')).toBe('application/pdf');
      expect(damdfe.headers.get('content-disposition')).toBe(damdfeApi.headers.get('content-disposition'));
      expect(damdfe.bytes.subarray(0, 4).toString()).toBe('%PDF');

      const xml = await baixar(`/console/mdfe/${mdfeId}/xml`);
      const xmlApi = await baixarApi(c, `/v1/fiscal/mdfe/${mdfeId}/xml`);
      expect(xml.status).toBe(200);
      expect(xml.bytes.equals(xmlApi.bytes)).toBe(true);
    });

    it("never shows another company's MDF-e (404 page)", async () => {
      const deOutra = await sessaoDe(app, outra, 'admin');
      expect((await deOutra.get('/console/mdfe')).html).not.toContain(mdfeId);
      for (const path of [`/console/mdfe/${mdfeId}`, `/console/mdfe/${mdfeId}/damdfe`, `/console/mdfe/${mdfeId}/xml`]) {
        const res = await baixar(path, deOutra);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
      expect((await leitura.get(`/console/mdfe/${UUID_DESCONHECIDO}`)).status).toBe(404);
    });
  });

  describe('/console/caixa-de-entrada', () => {
    it("shows a contractor's CT-e received through the API, filters it, serves its XML; not to another company", async () => {
      const contratante = randomCnpj();
      const recebido = buildCteXml({ emitenteCnpj: contratante, emitenteNome: 'CONTRATANTE ÁGIL SA', nfeChaves: [nfeKey()] });
      const r = await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: recebido.xml });
      expect(r.status).toBe(201);

      const res = await leitura.get('/console/caixa-de-entrada');
      expect(res.status).toBe(200);
      expect(res.html).toContain('<caption>CT-e recebidos</caption>');
      expect(res.html).toContain(recebido.chave);
      expect(res.html).toContain('CONTRATANTE ÁGIL SA');
      // The NF-e imported through the API are listed beside them (none here).
      expect(res.html).toContain('Nenhuma NF-e importada.');

      const busca = await leitura.get(`/console/caixa-de-entrada?busca=${contratante}`);
      expect(busca.html).toContain(recebido.chave);
      const nada = await leitura.get('/console/caixa-de-entrada?busca=NINGUEM%20COM%20ESSE%20NOME');
      expect(nada.html).not.toContain(recebido.chave);
      expect((await leitura.get('/console/caixa-de-entrada?papel=chefe')).status).toBe(400);

      const xml = await baixar(`/console/caixa-de-entrada/${recebido.chave}/xml`);
      const xmlApi = await baixarApi(c, `/v1/fiscal/cte-subcontratacao/${recebido.chave}/xml`);
      expect(xml.status).toBe(200);
      expect(xml.bytes.equals(xmlApi.bytes)).toBe(true);

      const deOutra = await sessaoDe(app, outra, 'leitura');
      expect((await deOutra.get('/console/caixa-de-entrada')).html).not.toContain(recebido.chave);
      expect((await baixar(`/console/caixa-de-entrada/${recebido.chave}/xml`, deOutra)).status).toBe(404);
    });
  });

  describe('/console (home)', () => {
    it('draws the indicators of GET /v1/fiscal/painel as SVG charts, each number shown once (read from a hidden list), and keeps the area links', async () => {
      const res = await admin.get('/console');
      const painel = (await c.call('GET', '/v1/fiscal/painel')).body.data;
      expect(res.status).toBe(200);
      // The drawing is for the eye; the numbers' list is for screen readers, visually hidden: no figure shown twice.
      expect(res.html).toMatch(/<svg[^>]*aria-hidden="true"/);
      expect(res.html).not.toMatch(/<svg[^>]*role="img"/);
      const listas = res.html.match(/<ul class="[^"]*grafico-dados[^"]*"/g) ?? [];
      expect(listas.length).toBeGreaterThan(0);
      for (const l of listas) expect(l).toContain('visualmente-oculto');
      expect(res.html).toContain('<title>Atividade da integração</title>');
      expect(res.html).toContain(`Eventos registrados: <span class="numero">${painel.eventos_registrados}</span>`);
      expect(res.html).toContain(`Credenciais ativas: <span class="numero">${painel.credenciais_ativas}</span>`);
      expect(res.html).toContain(`Dias para expirar: <span class="numero">${painel.certificado.dias_para_expirar} dias</span>`);
      expect(res.html).toContain(painel.configuracao.completa ? 'Configuração fiscal: completa' : 'Configuração fiscal: incompleta');
      // The CT-e chart counts the list's totals: one authorized here (and the MDF-e's), drafts from the paging test.
      const autorizados = (await c.call('GET', '/v1/fiscal/cte?status=autorizado')).body.meta.total;
      expect(res.html).toContain(`Autorizado: <span class="numero">${autorizados}</span>`);
      for (const area of ['/console/cte', '/console/mdfe', '/console/caixa-de-entrada']) expect(res.html).toContain(`href="${area}"`);
      // The company the user works in, on this page and every other one.
      const cnpj = c.cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
      const empresa = `<p class="empresa" aria-label="Empresa"><strong>DOCUMENTOS TRANSPORTES LTDA</strong> <span class="cnpj">CNPJ ${cnpj}</span></p>`;
      for (const path of ['/console', '/console/cte', '/console/parcelas', '/console/lotes', '/console/conta', '/console/nao-existe'])
        expect({ path, empresa: (await admin.get(path)).html.includes(empresa) }).toEqual({ path, empresa: true });
      const daOutra = await sessaoDe(app, outra, 'leitura');
      expect((await daOutra.get('/console')).html).toContain('<strong>OUTRA EMISSORA LTDA</strong>');
      expect(res.html).not.toContain('<script>');
    });
  });
});
