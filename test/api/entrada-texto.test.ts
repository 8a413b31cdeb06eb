import { buildCteXml, nfeKey } from '../support/cte-xml';
import { nfeSample } from '../support/nfe-files';
import { startTestApp, expectError, randomCnpj, request, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';

/**
 * Issue 11, defect 5: what PostgreSQL refuses (U+0000, a lone surrogate in jsonb, an offset beyond 64 bits) is
 * refused at the edge with 400 `validacao` naming the field, wherever it comes in; never a 500.
 */
describe('strings and numbers PostgreSQL cannot take are refused at the edge', () => {
  let app: TestApp;
  let c: TestCarrier;
  const CPF = '52998224725';

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ scopes: ['fiscal', 'operacao', 'cadastros', 'consultas', 'auditoria'] });
  });
  afterAll(() => app?.close());

  const fieldsOf = (res: ApiResponse) => expectError(res, 400, 'validacao').error.details.fields.map((f: { field: string }) => f.field);

  describe('NUL (U+0000)', () => {
    it('in the query: search on every list that has one', async () => {
      for (const list of [
        '/v1/fiscal/nfe',
        '/v1/fiscal/motoristas',
        '/v1/fiscal/veiculos',
        '/v1/fiscal/cte-subcontratacao',
        '/v1/agregados',
      ]) {
        expect({ list, fields: fieldsOf(await c.call('GET', `${list}?search=a%00b`)) }).toEqual({ list, fields: ['querystring.search'] });
      }
    });

    it("in a JSON body: a driver's nome, an invitation's contato.nome, a CT-e draft's observacoes", async () => {
      expect(fieldsOf(await c.call('POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'JOAO\u0000DA SILVA' }))).toEqual(['nome']);
      const convite = { cnpj: randomCnpj(), contato: { nome: 'MARIA\u0000', email: 'maria@example.com' } };
      expect(fieldsOf(await c.call('POST', '/v1/convites/transportadoras', convite))).toEqual(['contato.nome']);
      expect(fieldsOf(await c.call('POST', '/v1/fiscal/cte', { observacoes: 'ENTREGAR\u0000NA DOCA' }))).toEqual(['observacoes']);
      // Nothing reached the read models.
      expect((await c.call('GET', '/v1/fiscal/motoristas')).body.meta.total).toBe(0);
    });

    it('in a field name of a JSON body', async () => {
      expect(fieldsOf(await c.call('POST', '/v1/fiscal/cte', { 'observa\u0000coes': 'x' }))).toEqual(['observa\uFFFDcoes']);
    });

    it('in a path parameter', async () => {
      expect(fieldsOf(await c.call('GET', '/v1/agregados/529%00'))).toEqual(['params.documento']);
      expect(fieldsOf(await c.call('GET', '/v1/fiscal/nfe/35%00'))).toEqual(['params.access_key']);
    });

    it('in the form body of POST /oauth/token: RFC 6749 invalid_request, as every token error', async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'client\u0000', client_secret: 'x' });
      const res = await request(`${app.url}/oauth/token`, 'POST', form);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: 'invalid_request', error_description: expect.any(String) },
      });
    });

    it('in a JSON xml field: validacao naming it; inside XML bytes (base64 or multipart): xml_malformado, nothing archived', async () => {
      const { xml } = buildCteXml({ emitenteCnpj: randomCnpj(), nfeChaves: [nfeKey()], observacao: 'OBS\u0000' });
      expect(fieldsOf(await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml }))).toEqual(['xml']);
      const base64 = Buffer.from(xml, 'utf8').toString('base64');
      expectError(await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: base64 }), 400, 'xml_malformado');
      const form = new FormData();
      form.append('arquivo', new Blob([Buffer.from(xml, 'utf8')], { type: 'application/xml' }), 'cte.xml');
      expectError(await c.call('POST', '/v1/fiscal/cte-emitidos', form), 400, 'xml_malformado');
      const nfeXml = nfeSample('35180834128745000152550010000474281920007498-nfe.xml')
        .toString('utf8')
        .replace('<xNome>FULANO', '<xNome>\u0000FULANO');
      const nfe = new FormData();
      nfe.append('arquivos[]', new Blob([Buffer.from(nfeXml, 'utf8')], { type: 'application/xml' }), 'nfe.xml');
      const imported = expectError(await c.call('POST', '/v1/fiscal/nfe/importacoes', nfe), 422, 'nenhuma_nfe_importada');
      expect(imported.error.details.arquivos[0].erros.map((e: { code: string }) => e.code)).toEqual(['xml_malformado']);
      const { rows } = await app.db.pool.query('SELECT count(*)::int AS n FROM documents');
      expect(rows[0].n).toBe(0);
    });

    it('in a multipart file name or text part', async () => {
      const nfe = new FormData();
      nfe.append('arquivos[]', new Blob([Buffer.from('<nfeProc/>')], { type: 'application/xml' }), 'nota\u0000.xml');
      expect(fieldsOf(await c.call('POST', '/v1/fiscal/nfe/importacoes', nfe))).toEqual(['arquivos[]']);
      const cte = new FormData();
      cte.append('arquivo', '<cteProc>\u0000</cteProc>');
      expect(fieldsOf(await c.call('POST', '/v1/fiscal/cte-subcontratacao', cte))).toEqual(['arquivo']);
    });
  });

  it('a path the router cannot decode (invalid UTF-8 percent-encoded): 400 validacao in the envelope, with X-Request-Id', async () => {
    for (const bad of ['%FF%FE', '%ED%A0%80', '%C3%28']) {
      expect(fieldsOf(await c.call('GET', `/v1/fiscal/cte/${bad}`))).toEqual(['(url)']);
    }
  });

  it('a lone UTF-16 surrogate in a JSON string (jsonb refuses it): validacao naming the field', async () => {
    const body = `{"cpf":"${CPF}","nome":"JOAO \\ud800 SILVA"}`;
    expect(fieldsOf(await c.call('POST', '/v1/fiscal/motoristas', body, { 'content-type': 'application/json' }))).toEqual(['nome']);
  });

  it('a JSON body that is not UTF-8 is refused, not stored with U+FFFD in place of what was sent', async () => {
    const latin1 = Buffer.from(`{"cpf":"${CPF}","nome":"JOÃO DA SILVA"}`, 'latin1');
    const res = await fetch(`${app.url}/v1/fiscal/motoristas`, {
      method: 'POST',
      body: latin1,
      headers: { authorization: `Bearer ${c.apiKey}`, 'content-type': 'application/json' },
    });
    const parsed = { status: res.status, headers: res.headers, text: '', body: await res.json() };
    expect(fieldsOf(parsed)).toEqual(['(body)']);
    expect((await c.call('GET', '/v1/fiscal/motoristas')).body.meta.total).toBe(0);
  });

  it('JSON nested deeper than any body of the API: validacao, also on a route that reads its body itself', async () => {
    const { xml } = buildCteXml({ emitenteCnpj: randomCnpj(), nfeChaves: [nfeKey()] });
    const deep = `{"xml":${JSON.stringify(xml)},"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await c.call('POST', '/v1/fiscal/cte-subcontratacao', deep, { 'content-type': 'application/json' });
    expect(fieldsOf(res)).toEqual([`a${'.0'.repeat(31)}`]);
    expect((await c.call('GET', '/v1/fiscal/cte-subcontratacao')).body.meta.total).toBe(0);
  });

  describe('paging out of range (ruling 9): 400 validacao on every list', () => {
    const LISTS = [
      '/v1/fiscal/cte',
      '/v1/fiscal/cte-subcontratacao',
      '/v1/fiscal/nfe',
      '/v1/fiscal/mdfe',
      '/v1/fiscal/motoristas',
      '/v1/fiscal/veiculos',
      '/v1/fiscal/regras-tributacao',
      '/v1/conta-operacional/extrato',
      '/v1/vale-pedagio',
      '/v1/convites/transportadoras',
      '/v1/agregados',
    ];
    const BAD = [
      'page=1e308',
      'page=18446744073709551616',
      'page=9223372036854775808',
      'page=0',
      'page=-1',
      'page=1.5',
      'page=abc',
      'per_page=101',
      'per_page=1e308',
    ];

    it.each(LISTS)('%s', async (list) => {
      for (const q of BAD) {
        const field = `querystring.${q.split('=')[0]}`;
        expect({ q, fields: fieldsOf(await c.call('GET', `${list}?${q}`)) }).toEqual({ q, fields: [field] });
      }
      const last = await c.call('GET', `${list}?page=1000000000&per_page=100`);
      expect({ status: last.status, data: last.body.data }).toEqual({ status: 200, data: [] });
    });
  });
});
