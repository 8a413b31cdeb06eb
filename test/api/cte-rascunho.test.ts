import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml } from '../support/cte-xml';
import { rascunhoEmitivel } from '../support/emissora';

/** A complete draft with its own CFOP and ICMS. */
const draft = () => ({
  ...rascunhoEmitivel(),
  cfop: '6353',
  natureza_operacao: 'PRESTACAO DE SERVICO DE TRANSPORTE',
  impostos: { icms: { cst: '00', aliquota: 12 } },
});

describe('CT-e drafts: POST, GET, PUT /fiscal/cte', () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;
  let id: string;

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ name: 'EMISSORA TRANSPORTES LTDA' });
    other = await app.carrier();
  });
  afterAll(() => app?.close());

  it('201 with data.id: a draft, its data normalized (documents unmasked, IBGE names and codes)', async () => {
    const res = await c.call('POST', '/v1/fiscal/cte', draft());
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d).toMatchObject({
      situacao: 'rascunho',
      origem: 'emissao',
      access_key: null,
      service_type: 0,
      environment: 'homologacao',
      documento: null,
    });
    expect(d.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(d.rascunho.inicio).toEqual({ municipio: 'Campinas', uf: 'SP', codigo_ibge: '3509502' });
    expect(d.rascunho.remetente.documento).toBe('11222333000181');
    expect(d.rascunho.destinatario).toMatchObject({ documento: '52998224725', endereco: { codigo_ibge: '3304557' } });
    id = d.id;
    const got = await c.call('GET', `/v1/fiscal/cte/${id}`);
    expect(got.body.data).toEqual(d);
  });

  it('a draft may be incomplete; the smallest body is {}', async () => {
    const res = await c.call('POST', '/v1/fiscal/cte', {});
    expect(res.status).toBe(201);
    expect(res.body.data.rascunho).toEqual({});
  });

  it('lists own drafts with the status filter', async () => {
    const list = await c.call('GET', '/v1/fiscal/cte?status=rascunho');
    expect(list.body.meta.total).toBe(2);
    expect((await c.call('GET', '/v1/fiscal/cte?status=autorizado')).body.meta.total).toBe(0);
    expect((await other.call('GET', '/v1/fiscal/cte')).body.meta.total).toBe(0);
  });

  it('PUT replaces the editable data as a whole', async () => {
    const changed = { ...draft(), tipo_servico: 1, observacoes: null, valores: { total: 99.9 } };
    const res = await c.call('PUT', `/v1/fiscal/cte/${id}`, changed);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      situacao: 'rascunho',
      service_type: 1,
      rascunho: { tipo_servico: 1, observacoes: null, valores: { total: 99.9 } },
    });
    expect(res.body.data.rascunho.valores).not.toHaveProperty('componentes');
    const events = await app.running.platform.store.readStream(`cte-${id}`);
    expect(events.map((e) => e.type)).toEqual(['cte.rascunho_criado', 'cte.rascunho_alterado']);
    // The same data again changes nothing.
    await c.call('PUT', `/v1/fiscal/cte/${id}`, changed);
    expect(await app.running.platform.store.readStream(`cte-${id}`)).toHaveLength(2);
  });

  it('an Idempotency-Key makes a retried POST return the same draft', async () => {
    const headers = { 'idempotency-key': 'pedido-4711-tentativa' };
    // A retry sends the same request: `draft()` draws a new NF-e key each time, which would make it another request (422).
    const body = draft();
    const a = await c.call('POST', '/v1/fiscal/cte', body, headers);
    const b = await c.call('POST', '/v1/fiscal/cte', body, headers);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(await app.running.platform.store.readStream(`cte-${a.body.data.id}`)).toHaveLength(1);
  });

  it('money with two places and quantities with four are exact, whatever their binary floating point', async () => {
    const ok = await c.call('POST', '/v1/fiscal/cte', {
      valores: {
        total: 19.99,
        a_receber: 19.99,
        componentes: [
          { nome: 'PEDAGIO', valor: 0.07 },
          { nome: 'FRETE', valor: 19.92 },
        ],
      },
      carga: {
        valor: 4.35,
        produto_predominante: 'PECAS',
        quantidades: [{ unidade: '01', tipo_medida: 'PESO BRUTO', quantidade: 1000.1234 }],
      },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.rascunho.valores.componentes[0].valor).toBe(0.07);
    const bad = expectError(await c.call('POST', '/v1/fiscal/cte', { valores: { total: 1.005 } }), 400, 'validacao');
    expect(bad.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['valores.total']);
  });

  it('400 validacao names each field: shape, check digits, IBGE pairs, keys, vRec over vTPrest', async () => {
    const bad = {
      ...draft(),
      inicio: { municipio: 'Atlantida', uf: 'SP' },
      remetente: { ...draft().remetente, documento: '11.222.333/0001-00' },
      valores: { total: 10, a_receber: 11 },
      documentos: { nfe: [{ chave: buildCteXml({ emitenteCnpj: '11222333000181' }).chave }] },
    };
    const res = expectError(await c.call('POST', '/v1/fiscal/cte', bad), 400, 'validacao');
    expect(res.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'documentos.nfe.0.chave',
      'inicio.municipio',
      'remetente.documento',
      'valores.a_receber',
    ]);
    const shape = expectError(await c.call('POST', '/v1/fiscal/cte', { tipo_servico: 4, cfop: '1234', desconhecido: 1 }), 400, 'validacao');
    expect(shape.error.details.fields.map((f: { field: string }) => f.field)).toEqual(
      expect.arrayContaining(['tipo_servico', 'cfop', 'desconhecido']),
    );
    expectError(await c.call('POST', '/v1/fiscal/cte', {}, { 'idempotency-key': 'x' }), 400, 'validacao');
  });

  it("404 for another company's draft or an unknown id; 422 cte_nao_editavel for a CT-e already sent", async () => {
    expectError(await other.call('GET', `/v1/fiscal/cte/${id}`), 404, 'nao_encontrado');
    expectError(await other.call('PUT', `/v1/fiscal/cte/${id}`, draft()), 404, 'nao_encontrado');
    expectError(await c.call('PUT', '/v1/fiscal/cte/00000000-0000-4000-8000-000000000000', draft()), 404, 'nao_encontrado');
    const delivered = await c.call('POST', '/v1/fiscal/cte-emitidos', { xml: buildCteXml({ emitenteCnpj: c.cnpj }).xml });
    expectError(await c.call('PUT', `/v1/fiscal/cte/${delivered.body.data.id}`, draft()), 422, 'cte_nao_editavel');
  });

  it('impostos.ibs_cbs (IBS/CBS of the tax reform): kept as given; a bad CST, cClassTrib or rate → 400 validacao', async () => {
    const ibs_cbs = { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 17.7, aliquota_ibs_mun: 0.0125, aliquota_cbs: 8.8 };
    const body = { ...draft(), impostos: { icms: { cst: '00', aliquota: 12 }, ibs_cbs } };
    const res = await c.call('POST', '/v1/fiscal/cte', body);
    expect(res.status).toBe(201);
    expect(res.body.data.rascunho.impostos).toEqual({ icms: { cst: '00', aliquota: 12 }, ibs_cbs });
    const got = await c.call('GET', `/v1/fiscal/cte/${res.body.data.id}`);
    expect(got.body.data.rascunho.impostos.ibs_cbs).toEqual(ibs_cbs);

    const campos = (r: { error: { details: { fields: { field: string }[] } } }) => r.error.details.fields.map((f) => f.field);
    const cst = expectError(
      await c.call('POST', '/v1/fiscal/cte', { ...body, impostos: { ibs_cbs: { ...ibs_cbs, cst: '00' } } }),
      400,
      'validacao',
    );
    expect(campos(cst)).toEqual(['impostos.ibs_cbs.cst']);
    const outros = expectError(
      await c.call('POST', '/v1/fiscal/cte', { ...body, impostos: { ibs_cbs: { ...ibs_cbs, cclass_trib: '1', aliquota_cbs: 101 } } }),
      400,
      'validacao',
    );
    expect(campos(outros).sort()).toEqual(['impostos.ibs_cbs.aliquota_cbs', 'impostos.ibs_cbs.cclass_trib']);
    const decimais = expectError(
      await c.call('POST', '/v1/fiscal/cte', { ...body, impostos: { ibs_cbs: { ...ibs_cbs, aliquota_ibs_mun: 0.00125 } } }),
      400,
      'validacao',
    );
    expect(campos(decimais)).toEqual(['impostos.ibs_cbs.aliquota_ibs_mun']);
  });
});
