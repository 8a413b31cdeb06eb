import { veiculoPorPlaca } from '@frete/projections';
import { expectError, type TestApp, type TestCarrier, appComDuasEmpresas } from '../support/app';

const PATH = '/v1/fiscal/veiculos';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const fieldsOf = (body: { error: { details: { fields: { field: string }[] } } }) => body.error.details.fields.map((f) => f.field);

const FULL = {
  placa: 'xyz-9876',
  renavam: '639600549',
  rntrc: '12345678',
  uf: 'SP',
  tara_kg: 7000,
  capacidade_kg: 23000,
  capacidade_m3: 90,
  tipo_rodado: '03',
  tipo_carroceria: '02',
  tipo: 'tracao',
  proprietario: { documento: '529.982.247-25', nome: 'JOAO DA SILVA', rntrc: '87654321', ie: 'ISENTO', uf: 'MG', tipo_proprietario: 0 },
};

describe('/fiscal/veiculos', () => {
  let app: TestApp;
  let a: TestCarrier;
  let b: TestCarrier;
  let smallId: number;
  let fullId: number;

  beforeAll(async () => ({ app, a, b } = await appComDuasEmpresas()));
  afterAll(() => app?.close());

  it('201 for the smallest body { placa }, with id 1 and every other field null', async () => {
    const res = await a.call('POST', PATH, { placa: 'abc-1d23' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      environment: 'homologacao',
      data: {
        id: 1,
        placa: 'ABC1D23',
        renavam: null,
        rntrc: null,
        uf: null,
        tara_kg: null,
        capacidade_kg: null,
        capacidade_m3: null,
        tipo_rodado: null,
        tipo_carroceria: null,
        tipo: 'tracao',
        proprietario: null,
        cadastrado_em: expect.stringMatching(ISO),
        atualizado_em: expect.stringMatching(ISO),
      },
    });
    smallId = res.body.data.id;
  });

  it('201 for a full body, masked input normalized', async () => {
    const res = await a.call('POST', PATH, FULL);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      id: 2,
      placa: 'XYZ9876',
      renavam: '00639600549',
      rntrc: '12345678',
      uf: 'SP',
      tara_kg: 7000,
      capacidade_kg: 23000,
      capacidade_m3: 90,
      tipo_rodado: '03',
      tipo_carroceria: '02',
      tipo: 'tracao',
      proprietario: {
        documento: '52998224725',
        tipo_documento: 'CPF',
        nome: 'JOAO DA SILVA',
        rntrc: '87654321',
        ie: 'ISENTO',
        uf: 'MG',
        tipo_proprietario: 0,
      },
    });
    fullId = res.body.data.id;
    const row = await veiculoPorPlaca(app.running.platform.pool, a.companyId, 'XYZ9876');
    expect(row?.id).toBe(fullId);
  });

  it('ids are per company: another company starts at 1', async () => {
    const res = await b.call('POST', PATH, { placa: 'ABC1D23' });
    expect(res.status).toBe(201);
    expect(res.body.data.id).toBe(1);
  });

  it.each([
    [{ placa: 'AB-123' }, ['placa']],
    [{ placa: 'ABC1234', renavam: '00639600548' }, ['renavam']],
    [{ placa: 'ABC1234', renavam: '1234' }, ['renavam']],
    [{ placa: 'ABC1234', rntrc: '1234' }, ['rntrc']],
    [{ placa: 'ABC1234', tipo_rodado: '07' }, ['tipo_rodado']],
    [{ placa: 'ABC1234', tipo_carroceria: '06' }, ['tipo_carroceria']],
    [{ placa: 'ABC1234', tipo: 'carreta' }, ['tipo']],
    [{ placa: 'ABC1234', uf: 'XX' }, ['uf']],
    [{ placa: 'ABC1234', tara_kg: -1 }, ['tara_kg']],
    [{ placa: 'ABC1234', proprietario: { ...FULL.proprietario, documento: '52998224724' } }, ['proprietario.documento']],
    [{ placa: 'ABC1234', proprietario: { ...FULL.proprietario, tipo_proprietario: 3 } }, ['proprietario.tipo_proprietario']],
    [{}, ['placa']],
    [{ placa: 'ABC1234', cor: 'azul' }, ['cor']],
  ])('400 validacao for %j naming %j', async (body, fields) => {
    const res = expectError(await a.call('POST', PATH, body), 400, 'validacao');
    expect(fieldsOf(res)).toEqual(expect.arrayContaining(fields)); // a nullable object also reports its null branch
  });

  it('422 veiculo_duplicado for an active plate of the company, in any form', async () => {
    const body = expectError(await a.call('POST', PATH, { placa: 'ABC-1D23' }), 422, 'veiculo_duplicado');
    expect(fieldsOf(body)).toEqual(['placa']);
    expectError(await a.call('PUT', `${PATH}/${fullId}`, { placa: 'abc1d23' }), 422, 'veiculo_duplicado');
  });

  it("GET one; 404 for another company's id, an unknown id and a non-integer id", async () => {
    const res = await a.call('GET', `${PATH}/${fullId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.placa).toBe('XYZ9876');
    expectError(await b.call('GET', `${PATH}/${fullId}`), 404, 'nao_encontrado');
    expectError(await a.call('GET', `${PATH}/999`), 404, 'nao_encontrado');
    expectError(await a.call('GET', `${PATH}/abc`), 404, 'nao_encontrado');
    expectError(await a.call('GET', `${PATH}/1.5`), 404, 'nao_encontrado');
    expectError(await b.call('PUT', `${PATH}/${fullId}`, { placa: 'QQQ1111' }), 404, 'nao_encontrado');
    expectError(await a.call('PUT', `${PATH}/abc`, { placa: 'QQQ1111' }), 404, 'nao_encontrado');
    expectError(await b.call('DELETE', `${PATH}/${fullId}`), 404, 'nao_encontrado');
    expectError(await a.call('DELETE', `${PATH}/abc`), 404, 'nao_encontrado');
  });

  it('PUT replaces the editable data (absent fields become null); 400 for invalid data', async () => {
    const res = await a.call('PUT', `${PATH}/${fullId}`, { placa: 'xyz9876', tipo: 'reboque', uf: 'PR' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: fullId, placa: 'XYZ9876', tipo: 'reboque', uf: 'PR', renavam: null, proprietario: null });
    expect(res.body.data.atualizado_em >= res.body.data.cadastrado_em).toBe(true);
    const again = await a.call('GET', `${PATH}/${fullId}`);
    expect(again.body.data).toEqual(res.body.data);
    expectError(await a.call('PUT', `${PATH}/${fullId}`, { placa: 'xyz' }), 400, 'validacao');
  });

  it('lists with pagination and searches by part of the plate', async () => {
    for (const placa of ['DEF1111', 'DEF2222', 'GHI3333']) expect((await a.call('POST', PATH, { placa })).status).toBe(201);
    const page1 = await a.call('GET', `${PATH}?per_page=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ page: 1, per_page: 2, total: 5, next_cursor: expect.any(String) });
    expect(page1.body.data.map((v: { id: number }) => v.id)).toEqual([1, 2]);
    expect(page1.body.environment).toBe('homologacao');
    const page3 = await a.call('GET', `${PATH}?per_page=2&page=3`);
    expect(page3.body.data.map((v: { placa: string }) => v.placa)).toEqual(['GHI3333']);
    const search = await a.call('GET', `${PATH}?search=def-`);
    expect(search.body.data.map((v: { placa: string }) => v.placa)).toEqual(['DEF1111', 'DEF2222']);
    expect(search.body.meta.total).toBe(2);
    const other = await b.call('GET', PATH);
    expect(other.body.data.map((v: { placa: string }) => v.placa)).toEqual(['ABC1D23']);
    expectError(await a.call('GET', `${PATH}?per_page=101`), 400, 'validacao');
    expectError(await a.call('GET', `${PATH}?page=0`), 400, 'validacao');
  });

  it('DELETE 204; then 404; the plate registers again under a new id', async () => {
    const del = await a.call('DELETE', `${PATH}/${smallId}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await a.call('GET', `${PATH}/${smallId}`), 404, 'nao_encontrado');
    expectError(await a.call('DELETE', `${PATH}/${smallId}`), 404, 'nao_encontrado');
    const list = await a.call('GET', PATH);
    expect(list.body.data.map((v: { id: number }) => v.id)).not.toContain(smallId);
    const again = await a.call('POST', PATH, { placa: 'ABC1D23' });
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(6);
  });

  it("records the events of the company's registry stream in order", async () => {
    const events = await app.running.platform.store.readStream(`veiculos-${a.companyId}`);
    expect(events.map((e) => e.type)).toEqual([
      'veiculo.cadastrado',
      'veiculo.cadastrado',
      'veiculo.alterado',
      'veiculo.cadastrado',
      'veiculo.cadastrado',
      'veiculo.cadastrado',
      'veiculo.removido',
      'veiculo.cadastrado',
    ]);
    expect(events[6]!.data).toEqual({ company_id: a.companyId, veiculo_id: smallId, placa: 'ABC1D23' });
  });
});
