import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';

/** Ruling 7: CIOT in production without a contracted provider: declarations are recorded and blocked, nothing else answers. */
describe('CIOT in production without a provider', () => {
  let app: TestApp;
  let c: TestCarrier;
  const declaracao = (cnpj: string, over: Record<string, unknown> = {}) => ({
    contratado: { documento: cnpj },
    carga: { tipo: 'lotacao', peso_kg: 5000 },
    rota: { origem: { municipio: 'Campinas', uf: 'SP' }, destino: { municipio: 'Curitiba', uf: 'PR' } },
    veiculos: [{ placa: 'ABC1D23' }],
    documentos_fiscais: [
      {
        numero: '1',
        remetente: { documento: '11222333000181', nome: 'REMETENTE' },
        destinatario: { documento: '52998224725', nome: 'JOSE' },
      },
    ],
    valores: { frete: 800 },
    motorista: { cpf: '52998224725', nome: 'JOAO' },
    ...over,
  });

  beforeAll(async () => {
    app = await startTestApp({ APP_ENVIRONMENT: 'producao' });
    c = await app.carrier({ fiscalProduction: true });
  }, 120_000);
  afterAll(() => app?.close());

  it('POST /fiscal/ciot records the operation and answers 422 declaracao_bloqueada; the operation is readable, with no invented number', async () => {
    for (const referencia_externa of ['PROD-1', 'CIOT-PENDENTE', 'CIOT-RECUSAR']) {
      const body = expectError(
        await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa })),
        422,
        'declaracao_bloqueada',
      );
      const id = body.error.details.ciot.id as string;
      expect(body.error.details.ciot).toMatchObject({ status: 'bloqueado', motivo_codigo: 'provedor_indisponivel' });
      const lido = await c.call('GET', `/v1/fiscal/ciot/${id}`);
      expect(lido.status).toBe(200);
      expect(lido.body.environment).toBe('producao');
      expect(lido.body.data).toMatchObject({
        id,
        status: 'bloqueado',
        environment: 'producao',
        ciot: null,
        codigo_verificacao: null,
        protocolo: null,
        referencia_externa,
        motivo_codigo: 'provedor_indisponivel',
      });
      expect(lido.body.data.motivo).toMatch(/nenhum provedor/);
      const events = await app.running.platform.store.readStream(`ciot-${id}`);
      expect(events.map((e) => e.type)).toEqual(['ciot.declarada', 'ciot.bloqueada']);
    }
    // The references stay unique, sentinels too (they mean nothing in production).
    expectError(await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { referencia_externa: 'CIOT-PENDENTE' })), 400, 'validacao');
    // Another contracted party is reported first.
    const outro = expectError(await c.call('POST', '/v1/fiscal/ciot', declaracao('11222333000181')), 422, 'declaracao_bloqueada');
    expect(outro.error.details.ciot.motivo_codigo).toBe('contratado_divergente');
    expectError(await c.call('POST', '/v1/fiscal/ciot', declaracao(c.cnpj, { veiculos: [] })), 400, 'validacao');
  });

  it('every CIOT operation of a CT-e answers 503 provedor_indisponivel and records nothing', async () => {
    const draft = await c.call('POST', '/v1/fiscal/cte', { observacoes: 'X' });
    expect(draft.status).toBe(201);
    const cte = draft.body.data.id as string;
    for (const [method, path, body] of [
      ['POST', 'ciot/validacao', undefined],
      ['POST', 'ciot/emissao', { motorista: { cpf: '52998224725' }, veiculos: [{ placa: 'ABC1D23' }] }],
      ['GET', 'ciot', undefined],
      ['POST', 'ciot/inicio-viagem', undefined],
      ['POST', 'ciot/cancelamento', { justificativa: 'CARGA NAO FOI EMBARCADA' }],
      ['POST', 'ciot/retificacao', { valores: { frete: 1 } }],
      ['POST', 'ciot/encerramento', undefined],
    ] as const) {
      expectError(await c.call(method, `/v1/fiscal/cte/${cte}/${path}`, body), 503, 'provedor_indisponivel');
    }
    const { rows } = await app.running.platform.pool.query('SELECT count(*)::int AS n FROM rm.ciots WHERE cte_id = $1', [cte]);
    expect(rows[0].n).toBe(0);
  });
});
