import { expectError, request, startTestApp, type TestApp, type TestCarrier } from '../support/app';

const CPF = '52998224725';
const CNPJ = '11222333000181';
const ALFA = '12ABC34501DE35';

const fieldsOf = (body: { error: { details: { fields: { field: string }[] } } }) => body.error.details.fields.map((f) => f.field);

/** Regulator (ANTT) queries in sandbox: simulated, deterministic, with the exact sentinels of spec section 4 (ruling 13). */
describe('/consultas (sandbox)', () => {
  let app: TestApp;
  let c: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ scopes: ['consultas'], carrier: false, fiscalReady: false });
  });
  afterAll(() => app?.close());

  const rntrc = (documento: string, numero: string) =>
    c.call('GET', `/v1/consultas/rntrc?documento=${encodeURIComponent(documento)}&rntrc=${numero}`);
  const frota = (documento: string, placas: string) =>
    c.call('GET', `/v1/consultas/frota?documento=${encodeURIComponent(documento)}&placas=${encodeURIComponent(placas)}`);

  describe('GET /consultas/rntrc', () => {
    it('000000000 is an inactive registration; the simulated razao_social by document kind', async () => {
      const cnpj = await rntrc('11.222.333/0001-81', '000000000');
      expect(cnpj.status).toBe(200);
      expect(cnpj.body).toEqual({
        environment: 'homologacao',
        data: {
          documento: CNPJ,
          tipo_documento: 'CNPJ',
          rntrc: '000000000',
          ativo: false,
          situacao: 'inativo',
          tipo: 'ETC',
          equiparado_tac: false,
          razao_social: 'TRANSPORTES SIMULADOS HML LTDA',
          verificacao: 'simulada',
        },
      });
      const cpf = await rntrc('529.982.247-25', '000000000');
      expect(cpf.body.data).toEqual({
        documento: CPF,
        tipo_documento: 'CPF',
        rntrc: '000000000',
        ativo: false,
        situacao: 'inativo',
        tipo: 'TAC',
        equiparado_tac: false,
        razao_social: 'TRANSPORTADOR AUTONOMO SIMULADO',
        verificacao: 'simulada',
      });
    });

    it('111111111 is an active registration equated to TAC', async () => {
      const res = await rntrc(CNPJ, '111111111');
      expect(res.body.data).toEqual({
        documento: CNPJ,
        tipo_documento: 'CNPJ',
        rntrc: '111111111',
        ativo: true,
        situacao: 'ativo',
        tipo: 'ETC',
        equiparado_tac: true,
        razao_social: 'TRANSPORTES SIMULADOS HML LTDA',
        verificacao: 'simulada',
      });
      expect((await rntrc(CPF, '111111111')).body.data).toMatchObject({
        ativo: true,
        tipo: 'TAC',
        equiparado_tac: true,
        razao_social: 'TRANSPORTADOR AUTONOMO SIMULADO',
      });
    });

    it('any other number: active, TAC for a CPF, ETC for a CNPJ (alphanumeric too), not equated; 222222222 a cooperative (CTC) for a CNPJ', async () => {
      expect((await rntrc(CPF, '12345678')).body.data).toMatchObject({
        ativo: true,
        situacao: 'ativo',
        tipo: 'TAC',
        equiparado_tac: false,
        verificacao: 'simulada',
      });
      expect((await rntrc(ALFA, '123456789')).body.data).toMatchObject({
        documento: ALFA,
        tipo_documento: 'CNPJ',
        ativo: true,
        tipo: 'ETC',
        equiparado_tac: false,
      });
      expect((await rntrc(CNPJ, '222222222')).body.data).toMatchObject({ ativo: true, tipo: 'CTC', equiparado_tac: false });
      expect((await rntrc(CPF, '222222222')).body.data).toMatchObject({ ativo: true, tipo: 'TAC' });
      // The 8-digit forms of the sentinels (the fiscal registry keeps 8-digit RNTRCs).
      expect((await rntrc(CPF, '00000000')).body.data).toMatchObject({ ativo: false, situacao: 'inativo' });
      expect((await rntrc(CPF, '11111111')).body.data).toMatchObject({ ativo: true, equiparado_tac: true });
    });

    it('is deterministic: the same request, the same answer', async () => {
      const a = await rntrc(CNPJ, '87654321');
      const b = await rntrc(CNPJ, '87654321');
      expect(b.body).toEqual(a.body);
    });

    it('400 validacao names each bad parameter', async () => {
      expect(fieldsOf(expectError(await rntrc('52998224724', '123'), 400, 'validacao'))).toEqual([
        'querystring.documento',
        'querystring.rntrc',
      ]);
      expect(fieldsOf(expectError(await rntrc('11222333000180', '1234567890'), 400, 'validacao'))).toEqual([
        'querystring.documento',
        'querystring.rntrc',
      ]);
      expect(fieldsOf(expectError(await rntrc(CNPJ, 'ABCDEFGH'), 400, 'validacao'))).toEqual(['querystring.rntrc']);
      expect(fieldsOf(expectError(await c.call('GET', `/v1/consultas/rntrc?documento=${CPF}`), 400, 'validacao'))).toEqual([
        'querystring.rntrc',
      ]);
      expect(fieldsOf(expectError(await c.call('GET', '/v1/consultas/rntrc'), 400, 'validacao'))).toEqual([
        'querystring.documento',
        'querystring.rntrc',
      ]);
    });
  });

  describe('GET /consultas/frota', () => {
    it('one item per plate in the order given: ZZZ0X00 false, ZZZ9X99 null, others true, each simulada', async () => {
      const res = await frota('11.222.333/0001-81', 'abc-1234,ZZZ0X00, zzz9x99,ABC1D23');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        environment: 'homologacao',
        data: {
          documento: CNPJ,
          tipo_documento: 'CNPJ',
          placas: [
            { placa: 'ABC1234', pertence: true, verificacao: 'simulada' },
            { placa: 'ZZZ0X00', pertence: false, verificacao: 'simulada' },
            { placa: 'ZZZ9X99', pertence: null, verificacao: 'simulada' },
            { placa: 'ABC1D23', pertence: true, verificacao: 'simulada' },
          ],
        },
      });
    });

    it('accepts the parameter repeated, a CPF, and exactly 50 plates', async () => {
      const rep = await c.call('GET', `/v1/consultas/frota?documento=${CPF}&placas=ZZZ0X00&placas=XYZ9876`);
      expect(rep.body.data).toEqual({
        documento: CPF,
        tipo_documento: 'CPF',
        placas: [
          { placa: 'ZZZ0X00', pertence: false, verificacao: 'simulada' },
          { placa: 'XYZ9876', pertence: true, verificacao: 'simulada' },
        ],
      });
      const fifty = Array.from({ length: 50 }, (_, i) => `ABC${1000 + i}`);
      const res = await frota(CPF, fifty.join(','));
      expect(res.status).toBe(200);
      expect(res.body.data.placas.map((p: { placa: string }) => p.placa)).toEqual(fifty);
    });

    it('400 validacao: bad document, bad/empty/repeated plate, more than 50, missing placas', async () => {
      expect(fieldsOf(expectError(await frota('123', 'ABC1234'), 400, 'validacao'))).toEqual(['querystring.documento']);
      const bad = expectError(await frota(CNPJ, 'ABC1234,AB-12,,abc1234'), 400, 'validacao');
      expect(fieldsOf(bad)).toEqual(['querystring.placas.1', 'querystring.placas.2', 'querystring.placas.3']);
      expect(bad.error.message).toMatch(/repeated/);
      const many = Array.from({ length: 51 }, (_, i) => `ABC${1000 + i}`).join(',');
      const tooMany = expectError(await frota(CNPJ, many), 400, 'validacao');
      expect(tooMany.error.details.fields).toEqual([{ field: 'querystring.placas', message: 'at most 50 plates (51 given)' }]);
      expect(fieldsOf(expectError(await c.call('GET', `/v1/consultas/frota?documento=${CNPJ}`), 400, 'validacao'))).toEqual([
        'querystring.placas',
      ]);
    });
  });

  describe('gates', () => {
    it('401 without a credential or with an invalid one', async () => {
      for (const path of [`/v1/consultas/rntrc?documento=${CPF}&rntrc=111111111`, `/v1/consultas/frota?documento=${CPF}&placas=ABC1234`]) {
        expectError(await request(app.url + path, 'GET'), 401, 'nao_autenticado');
        expectError(await request(app.url + path, 'GET', undefined, { authorization: 'Bearer fk_hml_nope' }), 401, 'nao_autenticado');
      }
    });

    it('403 escopo_nao_habilitado without `consultas` (even with every other scope), before parameters are judged', async () => {
      const other = await app.carrier({ scopes: ['fiscal', 'operacao', 'cadastros'] });
      expectError(await other.call('GET', `/v1/consultas/rntrc?documento=${CPF}&rntrc=111111111`), 403, 'escopo_nao_habilitado');
      expectError(await other.call('GET', '/v1/consultas/frota?documento=x'), 403, 'escopo_nao_habilitado');
    });

    it('needs no carrier flag nor fiscal registration: the company comes from the credential', async () => {
      expect((await rntrc(c.cnpj, '12345678')).status).toBe(200);
    });
  });
});
