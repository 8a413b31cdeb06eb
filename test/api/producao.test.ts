import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { ENDERECO_SP, emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';

/** Ruling 7: a production deployment without a contracted fiscal provider never invents an answer. */
describe('fiscal authority in production without a provider', () => {
  let app: TestApp;
  let c: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp({ APP_ENVIRONMENT: 'producao' });
    c = await app.carrier({ fiscalProduction: true });
  });
  afterAll(() => app?.close());

  it('drafts work; issue, polling and events answer 503 provedor_indisponivel and record nothing', async () => {
    const draft = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    expect(draft.status).toBe(201);
    expect(draft.body.environment).toBe('producao');
    const id = draft.body.data.id as string;
    expectError(await c.call('POST', `/v1/fiscal/cte/${id}/emissao`), 503, 'provedor_indisponivel');
    expectError(await c.call('POST', `/v1/fiscal/cte/${id}/consulta`), 503, 'provedor_indisponivel');
    expectError(
      await c.call('POST', `/v1/fiscal/cte/${id}/eventos/cancelamento`, { justificativa: 'CANCELAMENTO DO FRETE' }),
      503,
      'provedor_indisponivel',
    );
    expectError(await c.call('POST', `/v1/fiscal/mdfe/${id}/emissao`), 503, 'provedor_indisponivel');
    // Counter-CT-e, single and in batches, issue documents too.
    const contra = { chave_cte_original: '3'.repeat(44), motorista: { cpf: '52998224725' }, placa: 'ABC1D23', valor_frete: 10 };
    expectError(await c.call('POST', '/v1/fiscal/cte/contra', contra), 503, 'provedor_indisponivel');
    expectError(
      await c.call('POST', '/v1/fiscal/cte-subcontratacao/lote', { subcontratada: { cnpj: c.cnpj }, ctes: [] }),
      503,
      'provedor_indisponivel',
    );
    const events = await app.running.platform.store.readStream(`cte-${id}`);
    expect(events.map((e) => e.type)).toEqual(['cte.rascunho_criado']);
    expect((await c.call('GET', `/v1/fiscal/cte/${id}`)).body.data.situacao).toBe('rascunho');
  });

  it('the national distribution is off until the company turns it on; on, a consultation is 503 provedor_indisponivel', async () => {
    const estado = await c.call('GET', '/v1/fiscal/distribuicao');
    expect(estado.body).toMatchObject({ environment: 'producao', data: { habilitada: false } });
    expect(estado.body.data.servicos.map((s: { ultimo_nsu: string }) => s.ultimo_nsu)).toEqual(['000000000000000', '000000000000000']);
    expect((await c.call('PUT', '/v1/fiscal/distribuicao', { habilitada: true })).body.data.habilitada).toBe(true);
    expectError(await c.call('POST', '/v1/fiscal/distribuicao/consultas'), 503, 'provedor_indisponivel');
    const events = await app.running.platform.store.readStream(`distribuicao-${c.companyId}`);
    expect(events.map((e) => e.type)).toEqual(['distribuicao.alterada']);
  });
});

/** With `FISCAL_AUTHORITY=sefaz` a production deployment issues for real: tpAmb 1, through SOAP over mutual TLS. */
describe('fiscal authority in production through sefaz', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ APP_ENVIRONMENT: 'producao' }, { autoridade: 'sefaz', autoridadeLocal: { tpAmb: 1 } });
  });
  afterAll(() => app?.close());

  it('issues a CT-e with tpAmb 1 and the production protocol; /fiscal/status names the real authority', async () => {
    const c = await emissora(app, 'EMISSORA PRODUCAO LTDA', ['fiscal'], ENDERECO_SP, true);
    const draft = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    const id = draft.body.data.id as string;
    expect((await c.call('POST', `/v1/fiscal/cte/${id}/emissao`)).status).toBe(202);
    const done = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`);
    expect(done.body).toMatchObject({ environment: 'producao', data: { situacao: 'autorizado', retorno: { cstat: 100 } } });
    const xml = (await c.call('GET', `/v1/fiscal/cte/${id}/xml`)).text;
    expect(xml).toContain('<tpAmb>1</tpAmb>');
    expect(/<protCTe[^>]*><infProt[^>]*><tpAmb>1<\/tpAmb>/.test(xml)).toBe(true);
    // At least once: a poll that consults while the first send is still in flight sends the same bytes again (204).
    expect(app.autoridadeLocal!.atendidos()['SP/CTeRecepcaoSincV4']).toBeGreaterThanOrEqual(1);
    const status = await c.call('GET', '/v1/fiscal/status');
    expect(status.body.data.autoridade).toMatchObject({ tipo: 'sefaz', cte: { situacao: 'em_operacao', cstat: 107 } });
  });
});
