import { startTestApp, expectError, request, type TestApp, type TestCarrier } from '../support/app';

describe('error envelope and request ids', () => {
  let app: TestApp;
  let carrier: TestCarrier;
  let webhooks: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp();
    carrier = await app.carrier();
    webhooks = await app.carrier({ scopes: ['webhooks'] });
  });
  afterAll(() => app?.close());

  it('generates X-Request-Id, and keeps a reasonable incoming one', async () => {
    const generated = await carrier.call('GET', '/v1/fiscal/configuracao');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await carrier.call('GET', '/v1/fiscal/configuracao', undefined, { 'x-request-id': 'integrator-req-0001' });
    expect(kept.headers.get('x-request-id')).toBe('integrator-req-0001');
    const refused = await carrier.call('GET', '/v1/fiscal/configuracao', undefined, { 'x-request-id': 'bad id with spaces <script>' });
    expect(refused.headers.get('x-request-id')).not.toContain(' ');
  });

  it('answers an unknown route with 404 nao_encontrado', async () => {
    expectError(await carrier.call('GET', '/v1/fiscal/nada'), 404, 'nao_encontrado');
    expectError(await request(`${app.url}/nothing/here`, 'GET'), 404, 'nao_encontrado');
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const res = await carrier.call('PATCH', '/v1/fiscal/configuracao', {});
    expectError(res, 405, 'metodo_nao_permitido');
    expect(res.headers.get('allow')).toContain('PUT');
  });

  it('answers malformed JSON with 400 validacao', async () => {
    const res = await carrier.call('PUT', '/v1/fiscal/configuracao', '{"rntrc": ', { 'content-type': 'application/json' });
    expectError(res, 400, 'validacao');
  });

  it('names every failing field in error.details.fields', async () => {
    const res = await carrier.call('PUT', '/v1/fiscal/configuracao', { rntrc: '123', serie_cte: 'x', endereco: { uf: 'XX' }, outro: 1 });
    const body = expectError(res, 400, 'validacao');
    const fields = body.error.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['rntrc', 'serie_cte', 'endereco.logradouro', 'endereco.uf', 'outro']));
  });

  describe('messages that teach: each names its field and what the field takes', () => {
    const messageOf = (body: { error: { details: { fields: { field: string; message: string }[] } } }, field: string) =>
      body.error.details.fields.find((f) => f.field === field)?.message;

    it('a nullable state names every state and null, not just the null branch', async () => {
      const body = expectError(await carrier.call('POST', '/v1/fiscal/veiculos', { placa: 'ABC1234', uf: 'XX' }), 400, 'validacao');
      const message = messageOf(body, 'uf')!;
      expect(message).toMatch(/^must be one of: AC, AL, .*SP.*TO or null$/);
      expect(body.error.message).toContain(`uf: ${message}`);
    });

    it('a required state names the states', async () => {
      const body = expectError(await carrier.call('PUT', '/v1/fiscal/configuracao', { endereco: { uf: 'XX' } }), 400, 'validacao');
      expect(messageOf(body, 'endereco.uf')).toMatch(/^must be one of: AC, AL, .*TO$/);
      expect(messageOf(body, 'endereco.logradouro')).toBe('is required');
    });

    it('an unknown field lists the fields the object takes; a wrong type says what was sent', async () => {
      const body = expectError(
        await carrier.call('POST', '/v1/fiscal/veiculos', { placa: 'ABC1234', tipo_rodado: 3, cor: 'azul', proprietario: [] }),
        400,
        'validacao',
      );
      expect(messageOf(body, 'cor')).toMatch(/^unknown field \(allowed: placa, .*renavam.*\)$/);
      expect(messageOf(body, 'proprietario')).toBe('must be an object (got array) or null');
    });

    it('an enum names its values, a pattern its shape, a bound its limit', async () => {
      const body = expectError(
        await carrier.call('POST', '/v1/fiscal/veiculos', { placa: 'ABC1234', tipo: 'carreta', rntrc: '1234', tara_kg: -1 }),
        400,
        'validacao',
      );
      expect(messageOf(body, 'tipo')).toBe('must be one of: tracao, reboque');
      expect(messageOf(body, 'rntrc')).toBe('must match the pattern ^[0-9]{8}$ (RNTRC, 8 digits) or null');
      expect(messageOf(body, 'tara_kg')).toBe('must be >= 0 or null');
    });
  });

  describe('an empty body sent as JSON (axios and Postman send the content type on every POST)', () => {
    it('is taken by a route that takes no body', async () => {
      const res = await webhooks.call('POST', '/v1/webhooks/00000000-0000-4000-8000-000000000000/teste', '', {
        'content-type': 'application/json',
      });
      // Not 400: the request reached the route, which looked for the endpoint.
      expectError(res, 404, 'nao_encontrado');
    });

    it('is refused by a route that needs one, saying that the body is missing', async () => {
      const res = await carrier.call('POST', '/v1/fiscal/veiculos', '', { 'content-type': 'application/json' });
      const body = expectError(res, 400, 'validacao');
      expect(body.error.message).toBe('(body): must be an object (the request came with no body)');
    });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await carrier.call('PUT', '/v1/fiscal/configuracao', JSON.stringify({ rntrc: 'x'.repeat(3 * 1024 * 1024) }), {
      'content-type': 'application/json',
    });
    expectError(res, 413, 'payload_muito_grande');
  });

  it('answers an unsupported content type with 415', async () => {
    expectError(
      await carrier.call('PUT', '/v1/fiscal/configuracao', 'rntrc=1', { 'content-type': 'text/csv' }),
      415,
      'tipo_de_midia_nao_suportado',
    );
  });

  it('answers an internal failure with 500 and no internals', async () => {
    await app.db.pool.query('ALTER TABLE rm.configuracoes_fiscais RENAME TO configuracoes_fiscais_gone');
    try {
      const res = await carrier.call('GET', '/v1/fiscal/configuracao');
      const body = expectError(res, 500, 'erro_interno');
      expect(res.text).not.toMatch(/configuracoes|relation|SELECT|at .*\.ts|stack/i);
      expect(body.error.message).toBe('internal error');
    } finally {
      await app.db.pool.query('ALTER TABLE rm.configuracoes_fiscais_gone RENAME TO configuracoes_fiscais');
    }
  });
});
