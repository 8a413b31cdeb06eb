import { expectError, randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';

const CPF = '52998224725';
const contato = { nome: 'Maria Souza', email: 'maria@example.com' };

/**
 * Ruling 7 for registrations and regulator queries in production without providers: what needs the regulator (ANTT) or
 * the PIX directory (DICT) answers 503 `provedor_indisponivel` and never invents data; what the service does alone
 * (invitations, the aggregate drivers from its own registry) keeps working, the RNTRC shown as not verified.
 */
describe('registrations and regulator queries in production without providers', () => {
  let app: TestApp;
  let c: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp({ APP_ENVIRONMENT: 'producao' });
    c = await app.carrier({ scopes: ['fiscal', 'cadastros', 'consultas'], fiscalProduction: true });
  });
  afterAll(() => app?.close());

  it('RNTRC and fleet queries: 503 provedor_indisponivel, sentinels included, before the parameters are judged', async () => {
    for (const path of [
      `/v1/consultas/rntrc?documento=${CPF}&rntrc=111111111`,
      `/v1/consultas/rntrc?documento=${CPF}&rntrc=000000000`,
      '/v1/consultas/rntrc?documento=x',
      `/v1/consultas/frota?documento=${CPF}&placas=ZZZ0X00,ZZZ9X99,ABC1234`,
      '/v1/consultas/frota',
    ]) {
      const body = expectError(await c.call('GET', path), 503, 'provedor_indisponivel');
      expect(body.error.message).toMatch(/regulator/);
      expect(JSON.stringify(body)).not.toMatch(/SIMULAD|simulada/);
    }
  });

  it('PIX key check: 503 provedor_indisponivel, for a valid key and for an invalid body alike', async () => {
    for (const body of [{ chave: CPF }, { tipo: 'email', chave: 'joao@example.com' }, { chave: 'nope' }, {}]) {
      expect(expectError(await c.call('POST', '/v1/chaves-pix/verificacao', body), 503, 'provedor_indisponivel').error.message).toMatch(
        /PIX directory/,
      );
    }
  });

  it('the scope is still checked first: 403 without it', async () => {
    const semEscopos = await app.carrier({ scopes: ['fiscal'], fiscalProduction: true });
    expectError(await semEscopos.call('GET', `/v1/consultas/rntrc?documento=${CPF}&rntrc=111111111`), 403, 'escopo_nao_habilitado');
    expectError(await semEscopos.call('POST', '/v1/chaves-pix/verificacao', { chave: CPF }), 403, 'escopo_nao_habilitado');
  });

  it('invitations work as in the sandbox (they need no provider): 201, then 200 the same, 422 codes', async () => {
    const cnpj = randomCnpj();
    const first = await c.call('POST', '/v1/convites/transportadoras', { cnpj, contato });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ environment: 'producao', data: { cnpj, estado: 'pendente' } });
    const again = await c.call('POST', '/v1/convites/transportadoras', { cnpj, contato });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expectError(await c.call('POST', '/v1/convites/transportadoras', { cnpj: c.cnpj, contato }), 422, 'convite_invalido');
    expect((await c.call('GET', `/v1/convites/transportadoras/${first.body.data.id}`)).body.environment).toBe('producao');
  });

  it('aggregate drivers work from the registry; the RNTRC is nao_verificado (aguardando_rntrc), never invented', async () => {
    expect(
      (
        await c.call('POST', '/v1/fiscal/veiculos', {
          placa: 'PRD1A11',
          proprietario: { documento: CPF, nome: 'JOAO DA SILVA', rntrc: '12345678', tipo_proprietario: 0 },
        })
      ).status,
    ).toBe(201);
    expect(
      (await c.call('POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'Joao da Silva', chave_pix: { tipo: 'cpf', valor: CPF } })).status,
    ).toBe(201);
    const res = await c.call('GET', `/v1/agregados/${CPF}`);
    expect(res.status).toBe(200);
    expect(res.body.environment).toBe('producao');
    expect(res.body.data).toMatchObject({
      documento: CPF,
      rntrc: { numero: '12345678', situacao: 'nao_verificado', tipo: null, equiparado_tac: null },
      estado: 'aguardando_rntrc',
      pendencias: [{ code: 'rntrc_nao_verificado' }],
    });
    expect(res.body.data.rntrc).not.toHaveProperty('verificacao');
    const list = await c.call('GET', '/v1/agregados?estado=aguardando_rntrc');
    expect(list.body.data.map((x: { documento: string }) => x.documento)).toEqual([CPF]);
  });
});
