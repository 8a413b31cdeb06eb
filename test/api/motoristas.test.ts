import { motoristaPorCpf } from '@frete/projections';
import { expectError, type TestApp, type TestCarrier, appComDuasEmpresas } from '../support/app';

const PATH = '/v1/fiscal/motoristas';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CPF = '52998224725';
const CPF2 = '11144477735';
const CPF3 = '39053344705';

const fieldsOf = (body: { error: { details: { fields: { field: string }[] } } }) => body.error.details.fields.map((f) => f.field);

describe('/fiscal/motoristas', () => {
  let app: TestApp;
  let a: TestCarrier;
  let b: TestCarrier;
  let smallId: number;
  let fullId: number;

  beforeAll(async () => ({ app, a, b } = await appComDuasEmpresas()));
  afterAll(() => app?.close());

  it('201 for the smallest body { cpf, nome } (masked CPF): automatic mode, no own rule', async () => {
    const res = await a.call('POST', PATH, { cpf: '529.982.247-25', nome: 'João da Silva' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      environment: 'homologacao',
      data: {
        id: 1,
        cpf: CPF,
        nome: 'João da Silva',
        telefone: null,
        chave_pix: null,
        repasse: { modo: 'automatico', parcelas: [] },
        cadastrado_em: expect.stringMatching(ISO),
        atualizado_em: expect.stringMatching(ISO),
      },
    });
    smallId = res.body.data.id;
  });

  it('201 for a full body, normalized', async () => {
    const res = await a.call('POST', PATH, {
      cpf: '111.444.777-35',
      nome: 'Maria Souza',
      telefone: '(11) 98765-4321',
      chave_pix: { tipo: 'telefone', valor: '+55 (11) 98765-4321' },
      repasse: {
        modo: 'manual',
        parcelas: [
          { posicao: 2, percentual: 33.33, dias: 15 },
          { posicao: 1, percentual: 33.33, dias: 0 },
          { posicao: 3, percentual: 33.34, dias: 30 },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      id: 2,
      cpf: CPF2,
      nome: 'Maria Souza',
      telefone: '+5511987654321',
      chave_pix: { tipo: 'telefone', valor: '+5511987654321' },
      repasse: {
        modo: 'manual',
        parcelas: [
          { posicao: 1, percentual: 33.33, dias: 0 },
          { posicao: 2, percentual: 33.33, dias: 15 },
          { posicao: 3, percentual: 33.34, dias: 30 },
        ],
      },
    });
    fullId = res.body.data.id;
    const row = await motoristaPorCpf(app.running.platform.pool, a.companyId, CPF2);
    expect(row?.id).toBe(fullId);
  });

  it.each([
    ['cpf', '529.982.247-25', CPF],
    ['cnpj', '11.222.333/0001-81', '11222333000181'],
    ['email', 'Maria@Example.com', 'maria@example.com'],
    ['aleatoria', '123E4567-E89B-12D3-A456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
  ])('PIX key %s %s is stored as %s', async (tipo, valor, stored) => {
    const res = await b.call('POST', PATH, { cpf: CPF3, nome: 'Pedro', chave_pix: { tipo, valor } });
    expect(res.status).toBe(201);
    expect(res.body.data.chave_pix).toEqual({ tipo, valor: stored });
    expect((await b.call('DELETE', `${PATH}/${res.body.data.id}`)).status).toBe(204);
  });

  const parcelas = (...items: [number, number, number][]) => ({
    parcelas: items.map(([posicao, percentual, dias]) => ({ posicao, percentual, dias })),
  });
  it.each([
    [{ cpf: '529.982.247-24' }, ['cpf']],
    [{ cpf: '1234' }, ['cpf']],
    [{ nome: '' }, ['nome']],
    [{ telefone: '123' }, ['telefone']],
    [{ chave_pix: { tipo: 'cpf', valor: '52998224724' } }, ['chave_pix.valor']],
    [{ chave_pix: { tipo: 'cnpj', valor: '11222333000180' } }, ['chave_pix.valor']],
    [{ chave_pix: { tipo: 'email', valor: 'maria@' } }, ['chave_pix.valor']],
    [{ chave_pix: { tipo: 'telefone', valor: '11987654321' } }, ['chave_pix.valor']],
    [{ chave_pix: { tipo: 'aleatoria', valor: 'abc' } }, ['chave_pix.valor']],
    [{ chave_pix: { tipo: 'boleto', valor: 'abc' } }, ['chave_pix.tipo']],
    [{ repasse: parcelas([1, 60, 0], [2, 30, 0]) }, ['repasse.parcelas']],
    [{ repasse: parcelas([1, 50, 0], [1, 50, 0]) }, ['repasse.parcelas.1.posicao']],
    [{ repasse: parcelas([1, 50, 0], [3, 50, 0]) }, ['repasse.parcelas']],
    [{ repasse: parcelas([1, 100, 31]) }, ['repasse.parcelas.0.dias']],
    [{ repasse: parcelas([4, 100, 0]) }, ['repasse.parcelas.0.posicao']],
    [{ repasse: parcelas([1, 99.999, 0], [2, 0.001, 0]) }, ['repasse.parcelas.0.percentual', 'repasse.parcelas.1.percentual']],
    [{ repasse: parcelas([1, 25, 0], [2, 25, 0], [3, 25, 0], [3, 25, 0]) }, ['repasse.parcelas']],
    [{ repasse: { modo: 'semanal' } }, ['repasse.modo']],
  ])('400 validacao for %j naming %j', async (over, fields) => {
    const res = expectError(await a.call('POST', PATH, { cpf: CPF3, nome: 'Pedro', ...over }), 400, 'validacao');
    expect(fieldsOf(res)).toEqual(expect.arrayContaining(fields)); // a nullable object also reports its null branch
  });

  it('400 validacao when cpf or nome is missing', async () => {
    expect(fieldsOf(expectError(await a.call('POST', PATH, { nome: 'Pedro' }), 400, 'validacao'))).toEqual(['cpf']);
    expect(fieldsOf(expectError(await a.call('POST', PATH, { cpf: CPF3 }), 400, 'validacao'))).toEqual(['nome']);
  });

  it('422 motorista_duplicado for an active CPF of the company, masked or not; another company may have it', async () => {
    const body = expectError(await a.call('POST', PATH, { cpf: CPF, nome: 'Outro' }), 422, 'motorista_duplicado');
    expect(fieldsOf(body)).toEqual(['cpf']);
    expectError(await a.call('PUT', `${PATH}/${fullId}`, { cpf: '529.982.247-25', nome: 'Maria' }), 422, 'motorista_duplicado');
    const other = await b.call('POST', PATH, { cpf: CPF, nome: 'João' });
    expect(other.status).toBe(201);
  });

  it("GET one; 404 for another company's id, an unknown id and a non-integer id", async () => {
    const res = await a.call('GET', `${PATH}/${fullId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.cpf).toBe(CPF2);
    expectError(await b.call('GET', `${PATH}/${fullId}`), 404, 'nao_encontrado');
    expectError(await a.call('GET', `${PATH}/999`), 404, 'nao_encontrado');
    expectError(await a.call('GET', `${PATH}/abc`), 404, 'nao_encontrado');
    expectError(await b.call('PUT', `${PATH}/${fullId}`, { cpf: CPF2, nome: 'X Y' }), 404, 'nao_encontrado');
    expectError(await a.call('PUT', `${PATH}/abc`, { cpf: CPF2, nome: 'X Y' }), 404, 'nao_encontrado');
    expectError(await b.call('DELETE', `${PATH}/${fullId}`), 404, 'nao_encontrado');
    expectError(await a.call('DELETE', `${PATH}/abc`), 404, 'nao_encontrado');
  });

  it('PUT replaces the editable data (absent fields become null, repasse back to the default)', async () => {
    const res = await a.call('PUT', `${PATH}/${fullId}`, { cpf: CPF2, nome: 'Maria S. Souza', chave_pix: { tipo: 'cpf', valor: CPF2 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: fullId,
      cpf: CPF2,
      nome: 'Maria S. Souza',
      telefone: null,
      chave_pix: { tipo: 'cpf', valor: CPF2 },
      repasse: { modo: 'automatico', parcelas: [] },
    });
    expect((await a.call('GET', `${PATH}/${fullId}`)).body.data).toEqual(res.body.data);
    expectError(await a.call('PUT', `${PATH}/${fullId}`, { cpf: CPF2, nome: 'Maria', repasse: parcelas([1, 100, 31]) }), 400, 'validacao');
  });

  it('lists with pagination and searches by name (case and accents ignored) and by CPF (masked or part)', async () => {
    expect((await a.call('POST', PATH, { cpf: CPF3, nome: 'Pedro Álvares' })).status).toBe(201);
    const page1 = await a.call('GET', `${PATH}?per_page=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ page: 1, per_page: 2, total: 3, next_cursor: expect.any(String) });
    expect(page1.body.data.map((m: { id: number }) => m.id)).toEqual([1, 2]);
    const page2 = await a.call('GET', `${PATH}?per_page=2&page=2`);
    expect(page2.body.data.map((m: { nome: string }) => m.nome)).toEqual(['Pedro Álvares']);
    const byName = await a.call('GET', `${PATH}?search=${encodeURIComponent('JOAO')}`);
    expect(byName.body.data.map((m: { cpf: string }) => m.cpf)).toEqual([CPF]);
    const byAccent = await a.call('GET', `${PATH}?search=alvares`);
    expect(byAccent.body.data.map((m: { cpf: string }) => m.cpf)).toEqual([CPF3]);
    const byCpf = await a.call('GET', `${PATH}?search=${encodeURIComponent('111.444.777-35')}`);
    expect(byCpf.body.data.map((m: { id: number }) => m.id)).toEqual([fullId]);
    expect(byCpf.body.meta.total).toBe(1);
    expectError(await a.call('GET', `${PATH}?per_page=0`), 400, 'validacao');
  });

  it('DELETE 204; then 404; the CPF registers again under a new id', async () => {
    const del = await a.call('DELETE', `${PATH}/${smallId}`);
    expect(del.status).toBe(204);
    expectError(await a.call('GET', `${PATH}/${smallId}`), 404, 'nao_encontrado');
    expectError(await a.call('DELETE', `${PATH}/${smallId}`), 404, 'nao_encontrado');
    const again = await a.call('POST', PATH, { cpf: CPF, nome: 'João da Silva' });
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(4);
  });

  it("records the events of the company's registry stream in order", async () => {
    const events = await app.running.platform.store.readStream(`motoristas-${a.companyId}`);
    expect(events.map((e) => e.type)).toEqual([
      'motorista.cadastrado',
      'motorista.cadastrado',
      'motorista.alterado',
      'motorista.cadastrado',
      'motorista.removido',
      'motorista.cadastrado',
    ]);
    expect(events[4]!.data).toEqual({ company_id: a.companyId, motorista_id: smallId, cpf: CPF });
  });
});
