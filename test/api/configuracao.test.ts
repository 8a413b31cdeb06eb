import { expectError, type TestApp, type TestCarrier, appComDuasEmpresas } from '../support/app';

const endereco = { logradouro: 'Rua das Flores', numero: '100', bairro: 'Centro', municipio: 'SAO PAULO', uf: 'SP', cep: '01001000' };

describe('GET/PUT /fiscal/configuracao', () => {
  let app: TestApp;
  let a: TestCarrier;
  let b: TestCarrier;
  beforeAll(async () => ({ app, a, b } = await appComDuasEmpresas()));
  afterAll(() => app?.close());

  it('starts empty, with what is missing for issuing', async () => {
    const res = await a.call('GET', '/v1/fiscal/configuracao');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      environment: 'homologacao',
      data: { cnpj: a.cnpj, inscricao_estadual: null, endereco: null, completa: false, atualizado_em: null },
    });
    expect(res.body.data.pendencias).toEqual(['inscricao_estadual', 'regime_tributario', 'rntrc', 'serie_cte', 'endereco']);
  });

  it('changes only the supplied fields and reads them back at once', async () => {
    const put = await a.call('PUT', '/v1/fiscal/configuracao', {
      inscricao_estadual: '110042490114',
      regime_tributario: 3,
      rntrc: '12345678',
      serie_cte: 1,
      endereco,
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      completa: true,
      pendencias: [],
      serie_cte: 1,
      endereco: { municipio: 'São Paulo', codigo_ibge: '3550308' },
    });
    const partial = await a.call('PUT', '/v1/fiscal/configuracao', { serie_mdfe: 2 });
    expect(partial.body.data).toMatchObject({ serie_cte: 1, serie_mdfe: 2, rntrc: '12345678' });
    const get = await a.call('GET', '/v1/fiscal/configuracao');
    expect(get.body.data).toEqual(partial.body.data);
  });

  it('clears a field with null', async () => {
    const res = await a.call('PUT', '/v1/fiscal/configuracao', { serie_mdfe: null });
    expect(res.body.data.serie_mdfe).toBeNull();
    expect(res.body.data.serie_cte).toBe(1);
  });

  it('refuses a municipality outside the IBGE table with 400 naming the field', async () => {
    const res = await a.call('PUT', '/v1/fiscal/configuracao', { endereco: { ...endereco, municipio: 'Campinas', uf: 'RJ' } });
    const body = expectError(res, 400, 'validacao');
    expect(body.error.details.fields[0].field).toBe('endereco.municipio');
  });

  it('refuses a reserved series with 422 serie_reservada', async () => {
    expectError(await a.call('PUT', '/v1/fiscal/configuracao', { serie_cte: 900 }), 422, 'serie_reservada');
  });

  it('refuses a pricing percentage below 0.01 (it would be stored as 0.00) with 400; the configuration stays readable', async () => {
    const c = await app.carrier();
    for (const tiny of [1e-9, 0.004, 0.0099]) {
      expectError(await c.call('PUT', '/v1/fiscal/configuracao', { percentual_frete_contra_cte: tiny }), 400, 'validacao');
    }
    expect(
      (await c.call('PUT', '/v1/fiscal/configuracao', { percentual_frete_contra_cte: 0.01 })).body.data.percentual_frete_contra_cte,
    ).toBe(0.01);
    expect((await c.call('GET', '/v1/fiscal/configuracao')).status).toBe(200);
  });

  it('keeps each company to its own configuration', async () => {
    const res = await b.call('GET', '/v1/fiscal/configuracao');
    expect(res.body.data).toMatchObject({ cnpj: b.cnpj, serie_cte: null, rntrc: null });
  });

  it('leaves the history in the event log for auditors, with who and why', async () => {
    const events = await app.running.platform.store.readStream(`configuracao-${a.companyId}`);
    expect(events.map((e) => e.type)).toEqual(['configuracao.atualizada', 'configuracao.atualizada', 'configuracao.atualizada']);
    expect(events[1]!.data).toEqual({ company_id: a.companyId, changes: { serie_mdfe: 2 } });
    expect(events[0]!.metadata).toMatchObject({ company_id: a.companyId, actor: `credential:${a.credentialId}` });
    expect(events[0]!.metadata.request_id).toBeTruthy();
  });
});
