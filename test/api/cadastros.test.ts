import { expectError, randomCnpj, request, startTestApp, type TestApp, type TestCarrier } from '../support/app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DIA = 24 * 3_600_000;
const CONVITES = '/v1/convites/transportadoras';

const JOAO = '52998224725';
const MARIA = '11144477735';
const PEDRO = '12345678909';
const INDEPENDENTE = '39053344705';
const SEM_VINCULO = '98765432100';
const MOTORISTA_PJ = '24681357928';
const AGREGADO_PJ = '11444777000161';

const fieldsOf = (body: { error: { details: { fields: { field: string }[] } } }) => body.error.details.fields.map((f) => f.field);
const contato = { nome: 'Maria Souza', email: 'Maria@Example.com', telefone: '(11) 98765-4321' };

describe('registrations (scope cadastros, sandbox)', () => {
  let app: TestApp;
  let offsetMs = 0;
  let a: TestCarrier;
  let b: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp({}, { clock: () => new Date(Date.now() + offsetMs) });
    a = await app.carrier({ scopes: ['fiscal', 'cadastros'] });
    b = await app.carrier({ scopes: ['fiscal', 'cadastros'] });
  });
  afterAll(() => app?.close());

  const streamTypes = async (companyId: string, cnpj: string) =>
    (await app.running.platform.store.readStream(`convite-${companyId}-${cnpj}`)).map((e) => e.type);

  describe('POST /convites/transportadoras', () => {
    it('201 with a new pending invitation, normalized, valid for 7 days; rm.convites has it', async () => {
      const cnpj = randomCnpj();
      const masked = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
      const res = await a.call('POST', CONVITES, { cnpj: masked, razao_social: ' TRANSPORTES  NOVOS LTDA ', contato });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        environment: 'homologacao',
        data: {
          id: expect.stringMatching(UUID),
          cnpj,
          razao_social: 'TRANSPORTES NOVOS LTDA',
          contato: { nome: 'Maria Souza', email: 'maria@example.com', telefone: '+5511987654321' },
          estado: 'pendente',
          enviado_em: expect.stringMatching(ISO),
          expira_em: expect.stringMatching(ISO),
          aceito_em: null,
          expirado_em: null,
        },
      });
      const d = res.body.data;
      expect(Date.parse(d.expira_em) - Date.parse(d.enviado_em)).toBe(7 * DIA);
      const { rows } = await app.running.platform.pool.query(
        'SELECT company_id, cnpj, estado, contato_email FROM rm.convites WHERE convite_id = $1',
        [d.id],
      );
      expect(rows).toEqual([{ company_id: a.companyId, cnpj, estado: 'pendente', contato_email: 'maria@example.com' }]);
      expect(await streamTypes(a.companyId, cnpj)).toEqual(['convite.enviado']);
    });

    it('200 with the same pending invitation (same id, first contact kept) when invited again; nothing appended', async () => {
      const cnpj = randomCnpj();
      const first = await a.call('POST', CONVITES, { cnpj, contato });
      expect(first.status).toBe(201);
      const again = await a.call('POST', CONVITES, { cnpj, contato: { nome: 'Outra Pessoa', email: 'outra@example.com' } });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await streamTypes(a.companyId, cnpj)).toEqual(['convite.enviado']);
      // Another company's invitation of the same CNPJ is its own.
      const other = await b.call('POST', CONVITES, { cnpj, contato });
      expect(other.status).toBe(201);
      expect(other.body.data.id).not.toBe(first.body.data.id);
    });

    it('accepts an alphanumeric CNPJ and no optional field', async () => {
      const cnpj = randomCnpj(true);
      const res = await a.call('POST', CONVITES, { cnpj: cnpj.toLowerCase(), contato: { nome: 'Ana', email: 'ana@example.com' } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ cnpj, razao_social: null, contato: { nome: 'Ana', email: 'ana@example.com', telefone: null } });
    });

    it("422 convite_invalido for the company's own CNPJ", async () => {
      const own = expectError(await a.call('POST', CONVITES, { cnpj: a.cnpj, contato }), 422, 'convite_invalido');
      expect(fieldsOf(own)).toEqual(['cnpj']);
      const masked = `${a.cnpj.slice(0, 2)}.${a.cnpj.slice(2, 5)}.${a.cnpj.slice(5, 8)}/${a.cnpj.slice(8, 12)}-${a.cnpj.slice(12)}`;
      expectError(await a.call('POST', CONVITES, { cnpj: masked, contato }), 422, 'convite_invalido');
    });

    it('422 transportadora_ja_cadastrada for a CNPJ that is already a carrier customer', async () => {
      const res = expectError(await a.call('POST', CONVITES, { cnpj: b.cnpj, contato }), 422, 'transportadora_ja_cadastrada');
      expect(fieldsOf(res)).toEqual(['cnpj']);
    });

    it('400 validacao names each bad field', async () => {
      const bad = expectError(
        await a.call('POST', CONVITES, {
          cnpj: '11222333000180',
          razao_social: ' x ',
          contato: { nome: ' J ', email: 'joao@', telefone: '123' },
        }),
        400,
        'validacao',
      );
      expect(fieldsOf(bad)).toEqual(['cnpj', 'razao_social', 'contato.nome', 'contato.email', 'contato.telefone']);
      expect(fieldsOf(expectError(await a.call('POST', CONVITES, { cnpj: '529.982.247-25', contato }), 400, 'validacao'))).toEqual([
        'cnpj',
      ]);
      expect(fieldsOf(expectError(await a.call('POST', CONVITES, { cnpj: randomCnpj() }), 400, 'validacao'))).toEqual(['contato']);
      expect(fieldsOf(expectError(await a.call('POST', CONVITES, { cnpj: randomCnpj(), contato, extra: 1 }), 400, 'validacao'))).toEqual([
        'extra',
      ]);
      expectError(await a.call('POST', CONVITES), 400, 'validacao');
    });

    it('becomes aceito when the CNPJ registers as a carrier while pending; inviting it again is then 422', async () => {
      const cnpj = randomCnpj();
      const sent = await a.call('POST', CONVITES, { cnpj, contato });
      await app.carrier({ cnpj });
      const res = await a.call('GET', `${CONVITES}/${sent.body.data.id}`);
      expect(res.body.data).toMatchObject({
        id: sent.body.data.id,
        estado: 'aceito',
        aceito_em: expect.stringMatching(ISO),
        expirado_em: null,
      });
      expectError(await a.call('POST', CONVITES, { cnpj, contato }), 422, 'transportadora_ja_cadastrada');
    });

    it('a company that is not a carrier may be invited; turning it into a carrier accepts the invitation', async () => {
      const cnpj = randomCnpj();
      await app.running.application.operator.createCompany({
        cnpj,
        razao_social: 'EMBARCADOR LTDA',
        carrier: false,
        fiscal_ready: false,
        fiscal_production: false,
      });
      const sent = await a.call('POST', CONVITES, { cnpj, contato });
      expect(sent.status).toBe(201);
      await app.running.application.operator.changeFlags(cnpj, { carrier: true });
      expect((await a.call('GET', `${CONVITES}/${sent.body.data.id}`)).body.data.estado).toBe('aceito');
    });
  });

  describe('GET /convites/transportadoras', () => {
    it("lists the company's invitations newest first, with filters and paging; another company's are not there", async () => {
      const c = await app.carrier({ scopes: ['cadastros'] });
      const cnpjs = [randomCnpj(), randomCnpj(), randomCnpj()];
      for (const cnpj of cnpjs) expect((await c.call('POST', CONVITES, { cnpj, contato })).status).toBe(201);
      const all = await c.call('GET', CONVITES);
      expect(all.status).toBe(200);
      expect(all.body.meta).toEqual({ page: 1, per_page: 20, total: 3, next_cursor: null });
      expect(all.body.environment).toBe('homologacao');
      expect(all.body.data.map((x: { cnpj: string }) => x.cnpj)).toEqual([...cnpjs].reverse());
      const page = await c.call('GET', `${CONVITES}?page=2&per_page=2`);
      expect(page.body).toMatchObject({ meta: { page: 2, per_page: 2, total: 3 }, data: [{ cnpj: cnpjs[0] }] });
      const one = await c.call('GET', `${CONVITES}?cnpj=${encodeURIComponent(cnpjs[1]!.slice(0, 2) + '.' + cnpjs[1]!.slice(2))}`);
      expect(one.body.data.map((x: { cnpj: string }) => x.cnpj)).toEqual([cnpjs[1]]);
      expect((await c.call('GET', `${CONVITES}?estado=aceito`)).body.meta.total).toBe(0);
      expect((await c.call('GET', `${CONVITES}?estado=pendente`)).body.meta.total).toBe(3);
      expect((await b.call('GET', `${CONVITES}?cnpj=${cnpjs[0]}`)).body.meta.total).toBe(0);
      expect(fieldsOf(expectError(await c.call('GET', `${CONVITES}?per_page=101`), 400, 'validacao'))).toEqual(['querystring.per_page']);
      expect(fieldsOf(expectError(await c.call('GET', `${CONVITES}?page=0`), 400, 'validacao'))).toEqual(['querystring.page']);
      expectError(await c.call('GET', `${CONVITES}?estado=outro`), 400, 'validacao');
    });

    it("GET /{id}: 404 nao_encontrado for another company's invitation and for an unknown or malformed id", async () => {
      const sent = await a.call('POST', CONVITES, { cnpj: randomCnpj(), contato });
      expect((await a.call('GET', `${CONVITES}/${sent.body.data.id}`)).body).toEqual({ data: sent.body.data, environment: 'homologacao' });
      expectError(await b.call('GET', `${CONVITES}/${sent.body.data.id}`), 404, 'nao_encontrado');
      expectError(await a.call('GET', `${CONVITES}/00000000-0000-4000-8000-000000000000`), 404, 'nao_encontrado');
      expectError(await a.call('GET', `${CONVITES}/nope`), 404, 'nao_encontrado');
    });
  });

  describe('aggregate drivers (GET /agregados)', () => {
    const veiculo = (placa: string, documento: string, nome: string, rntrc: string, tipo_proprietario = 0) => ({
      placa,
      proprietario: { documento, nome, rntrc, tipo_proprietario },
    });
    let joaoDriverId: number;

    beforeAll(async () => {
      const posts: [string, unknown][] = [
        ['/v1/fiscal/veiculos', veiculo('AGR1A11', '529.982.247-25', 'JOAO DA SILVA', '12345678')],
        ['/v1/fiscal/veiculos', veiculo('AGR2B22', JOAO, 'JOAO DA SILVA', '12345678')],
        ['/v1/fiscal/veiculos', veiculo('MAR1A11', MARIA, 'MARIA SOUZA', '00000000')],
        ['/v1/fiscal/veiculos', veiculo('PED1A11', PEDRO, 'PEDRO ALVES', '12345678')],
        ['/v1/fiscal/veiculos', veiculo('PED2B22', PEDRO, 'PEDRO ALVES', '87654321')],
        ['/v1/fiscal/veiculos', veiculo('TRA1A11', '11.444.777/0001-61', 'TRANSPORTES AGREGADO LTDA', '23456789')],
        ['/v1/fiscal/veiculos', veiculo('IND1A11', INDEPENDENTE, 'INDEPENDENTE', '12345678', 1)],
        ['/v1/fiscal/veiculos', { placa: 'OWN1A11' }],
        ['/v1/fiscal/motoristas', { cpf: JOAO, nome: 'Joao da Silva', chave_pix: { tipo: 'cpf', valor: JOAO } }],
        ['/v1/fiscal/motoristas', { cpf: MARIA, nome: 'Maria Souza' }],
        ['/v1/fiscal/motoristas', { cpf: PEDRO, nome: 'Pedro Alves', chave_pix: { tipo: 'email', valor: 'pedro@example.com' } }],
      ];
      for (const [path, body] of posts) {
        const res = await a.call('POST', path, body);
        expect(res.status).toBe(201);
        if (path.endsWith('motoristas') && (body as { cpf: string }).cpf === JOAO) joaoDriverId = res.body.data.id;
      }
    });

    it('one per owner document of the vehicles with tipo_proprietario 0, by name, with the state of each onboarding', async () => {
      const res = await a.call('GET', '/v1/agregados');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 4 });
      expect(
        res.body.data.map((x: { documento: string; estado: string; pendencias: { code: string }[] }) => [
          x.documento,
          x.estado,
          x.pendencias.map((p) => p.code),
        ]),
      ).toEqual([
        [JOAO, 'ativo', []],
        [MARIA, 'cadastro_incompleto', ['chave_pix_ausente', 'rntrc_inativo']],
        [PEDRO, 'cadastro_incompleto', ['rntrc_divergente']],
        [AGREGADO_PJ, 'cadastro_incompleto', ['motorista_nao_cadastrado']],
      ]);
      expect(res.body.data[0]).toEqual({
        documento: JOAO,
        tipo_documento: 'CPF',
        nome: 'JOAO DA SILVA',
        rntrc: { numero: '12345678', situacao: 'ativo', tipo: 'TAC', equiparado_tac: false, verificacao: 'simulada' },
        veiculos: [
          { id: expect.any(Number), placa: 'AGR1A11', tipo: 'tracao', rntrc: '12345678' },
          { id: expect.any(Number), placa: 'AGR2B22', tipo: 'tracao', rntrc: '12345678' },
        ],
        motorista: {
          id: joaoDriverId,
          cpf: JOAO,
          nome: 'Joao da Silva',
          telefone: null,
          chave_pix: { tipo: 'cpf', valor: JOAO },
          repasse: { modo: 'automatico', parcelas: [] },
        },
        estado: 'ativo',
        pendencias: [],
        cadastrado_em: expect.stringMatching(ISO),
        atualizado_em: expect.stringMatching(ISO),
      });
      expect(res.body.data[1].rntrc).toEqual({
        numero: '00000000',
        situacao: 'inativo',
        tipo: 'TAC',
        equiparado_tac: false,
        verificacao: 'simulada',
      });
      expect(res.body.data[2].rntrc.numero).toBe('87654321');
      expect(res.body.data[3]).toMatchObject({ tipo_documento: 'CNPJ', motorista: null, rntrc: { tipo: 'ETC' } });
    });

    it('filters by estado and search (name, document, plate), pages per ruling 9', async () => {
      const docs = async (qs: string) =>
        (await a.call('GET', `/v1/agregados?${qs}`)).body.data.map((x: { documento: string }) => x.documento);
      expect(await docs('estado=ativo')).toEqual([JOAO]);
      expect(await docs('estado=cadastro_incompleto')).toEqual([MARIA, PEDRO, AGREGADO_PJ]);
      expect(await docs('estado=aguardando_rntrc')).toEqual([]);
      expect(await docs('search=silva')).toEqual([JOAO]);
      expect(await docs('search=jo%C3%A3o')).toEqual([JOAO]);
      expect(await docs(`search=${encodeURIComponent('529.982')}`)).toEqual([JOAO]);
      expect(await docs('search=ped2b')).toEqual([PEDRO]);
      expect(await docs(`search=${encodeURIComponent('11.444.777/0001')}`)).toEqual([AGREGADO_PJ]);
      const page = await a.call('GET', '/v1/agregados?page=2&per_page=3');
      expect(page.body.meta).toEqual({ page: 2, per_page: 3, total: 4 });
      expect(page.body.data.map((x: { documento: string }) => x.documento)).toEqual([AGREGADO_PJ]);
      expect(fieldsOf(expectError(await a.call('GET', '/v1/agregados?per_page=0'), 400, 'validacao'))).toEqual(['querystring.per_page']);
      expectError(await a.call('GET', '/v1/agregados?estado=outro'), 400, 'validacao');
    });

    it('GET /agregados/{documento}: the same item; punctuation and %2F allowed; 400 malformed; 404 not an aggregate', async () => {
      const list = (await a.call('GET', '/v1/agregados')).body.data;
      const one = await a.call('GET', '/v1/agregados/529.982.247-25');
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ data: list[0], environment: 'homologacao' });
      expect((await a.call('GET', `/v1/agregados/${encodeURIComponent('11.444.777/0001-61')}`)).body.data.documento).toBe(AGREGADO_PJ);
      expect(fieldsOf(expectError(await a.call('GET', '/v1/agregados/123'), 400, 'validacao'))).toEqual(['params.documento']);
      expectError(await a.call('GET', '/v1/agregados/52998224724'), 400, 'validacao');
      expectError(await a.call('GET', `/v1/agregados/${INDEPENDENTE}`), 404, 'nao_encontrado');
      expectError(await a.call('GET', `/v1/agregados/${SEM_VINCULO}`), 404, 'nao_encontrado');
    });

    it('follows the registry: a PIX key, a driver paid to the CNPJ, a removed driver, a corrected RNTRC', async () => {
      const maria = (await a.call('GET', `/v1/fiscal/motoristas?search=${MARIA}`)).body.data[0];
      expect(
        (
          await a.call('PUT', `/v1/fiscal/motoristas/${maria.id}`, {
            cpf: MARIA,
            nome: 'Maria Souza',
            chave_pix: { tipo: 'email', valor: 'maria@example.com' },
          })
        ).status,
      ).toBe(200);
      expect((await a.call('GET', `/v1/agregados/${MARIA}`)).body.data).toMatchObject({
        estado: 'aguardando_rntrc',
        pendencias: [{ code: 'rntrc_inativo' }],
      });

      expect(
        (
          await a.call('POST', '/v1/fiscal/motoristas', {
            cpf: MOTORISTA_PJ,
            nome: 'Motorista da PJ',
            chave_pix: { tipo: 'cnpj', valor: AGREGADO_PJ },
          })
        ).status,
      ).toBe(201);
      expect((await a.call('GET', `/v1/agregados/${AGREGADO_PJ}`)).body.data).toMatchObject({
        estado: 'ativo',
        pendencias: [],
        motorista: { cpf: MOTORISTA_PJ },
      });

      expect((await a.call('DELETE', `/v1/fiscal/motoristas/${joaoDriverId}`)).status).toBe(204);
      expect((await a.call('GET', `/v1/agregados/${JOAO}`)).body.data).toMatchObject({
        estado: 'cadastro_incompleto',
        motorista: null,
        pendencias: [{ code: 'motorista_nao_cadastrado' }],
      });

      const ped2 = (await a.call('GET', '/v1/fiscal/veiculos?search=PED2B22')).body.data[0];
      expect((await a.call('PUT', `/v1/fiscal/veiculos/${ped2.id}`, veiculo('PED2B22', PEDRO, 'PEDRO ALVES', '12345678'))).status).toBe(
        200,
      );
      expect((await a.call('GET', `/v1/agregados/${PEDRO}`)).body.data).toMatchObject({ estado: 'ativo', pendencias: [] });
    });

    it('tenant isolation: another company has none of them', async () => {
      const res = await b.call('GET', '/v1/agregados');
      expect(res.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 }, environment: 'homologacao' });
      expectError(await b.call('GET', `/v1/agregados/${PEDRO}`), 404, 'nao_encontrado');
    });
  });

  describe('POST /chaves-pix/verificacao', () => {
    const verificar = (body: unknown) => a.call('POST', '/v1/chaves-pix/verificacao', body);
    const PESSOA_MASCARADA = /^[A-Z]+( [A-Z]\*+)+$/;

    it('a CPF key: a person, name and CPF masked, institution and account type, simulada; type inferred', async () => {
      const res = await verificar({ chave: '529.982.247-25' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        environment: 'homologacao',
        data: {
          tipo: 'cpf',
          chave: JOAO,
          titular: { tipo_pessoa: 'fisica', nome: expect.stringMatching(PESSOA_MASCARADA), documento: '***.982.247-**' },
          banco: { ispb: expect.stringMatching(/^[0-9]{8}$/), nome: expect.any(String) },
          tipo_conta: expect.stringMatching(/^(corrente|poupanca|pagamento)$/),
          verificacao: 'simulada',
        },
      });
      // Deterministic: the same key, the same answer (with or without the type).
      expect((await verificar({ tipo: 'cpf', chave: JOAO })).body).toEqual(res.body);
    });

    it('a CNPJ key: a company, corporate name and CNPJ in full', async () => {
      const res = await verificar({ chave: '11.222.333/0001-81' });
      expect(res.body.data).toMatchObject({
        tipo: 'cnpj',
        chave: '11222333000181',
        titular: {
          tipo_pessoa: 'juridica',
          nome: expect.stringMatching(/^TRANSPORTES [A-Z]+ [A-Z]+ LTDA$/),
          documento: '11.222.333/0001-81',
        },
        verificacao: 'simulada',
      });
    });

    it.each([
      [{ chave: ' Joao@Example.COM ' }, 'email', 'joao@example.com'],
      [{ chave: '+55 (11) 98765-4321' }, 'telefone', '+5511987654321'],
      [{ tipo: 'aleatoria', chave: '123E4567-E89B-12D3-A456-426614174000' }, 'aleatoria', '123e4567-e89b-12d3-a456-426614174000'],
    ])('%j: a person with a masked CPF', async (body, tipo, chave) => {
      const res = await verificar(body);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        tipo,
        chave,
        titular: {
          tipo_pessoa: 'fisica',
          nome: expect.stringMatching(PESSOA_MASCARADA),
          documento: expect.stringMatching(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/),
        },
        verificacao: 'simulada',
      });
      expect((await verificar(body)).body).toEqual(res.body);
    });

    it.each([
      [{ chave: '000.000.001-91' }],
      [{ tipo: 'cpf', chave: '00000000191' }],
      [{ chave: '99.999.999/0001-91' }],
      [{ chave: 'NAO.ENCONTRADA@pix.simulado' }],
      [{ tipo: 'telefone', chave: '+55 11 90000-0000' }],
      [{ chave: '00000000-0000-0000-0000-000000000000' }],
    ])('422 chave_pix_nao_encontrada for the sentinel %j', async (body) => {
      expectError(await verificar(body), 422, 'chave_pix_nao_encontrada');
    });

    it('400 validacao on chave, tipo or the body', async () => {
      for (const body of [
        { chave: 'joao@' },
        { chave: '52998224724' },
        { tipo: 'telefone', chave: '11987654321' },
        { chave: 'hello' },
        { tipo: 'cnpj', chave: JOAO },
      ]) {
        expect(fieldsOf(expectError(await verificar(body), 400, 'validacao'))).toEqual(['chave']);
      }
      expect(fieldsOf(expectError(await verificar({ tipo: 'pix', chave: JOAO }), 400, 'validacao'))).toEqual(['tipo']);
      expect(fieldsOf(expectError(await verificar({}), 400, 'validacao'))).toEqual(['chave']);
      expect(fieldsOf(expectError(await verificar({ chave: JOAO, extra: true }), 400, 'validacao'))).toEqual(['extra']);
    });
  });

  describe('gates', () => {
    const routes: [string, string, unknown?][] = [
      ['POST', CONVITES, { cnpj: '11444777000161', contato }],
      ['GET', CONVITES],
      ['GET', `${CONVITES}/00000000-0000-4000-8000-000000000000`],
      ['GET', '/v1/agregados'],
      ['GET', `/v1/agregados/${JOAO}`],
      ['POST', '/v1/chaves-pix/verificacao', { chave: JOAO }],
    ];

    it('401 nao_autenticado without a credential, on every route', async () => {
      for (const [method, path, body] of routes) expectError(await request(app.url + path, method, body), 401, 'nao_autenticado');
    });

    it('403 escopo_nao_habilitado without `cadastros` (even with every other scope), on every route', async () => {
      const other = await app.carrier({ scopes: ['fiscal', 'operacao', 'consultas'] });
      for (const [method, path, body] of routes) expectError(await other.call(method, path, body), 403, 'escopo_nao_habilitado');
    });

    it('needs no carrier flag: a company that is not a carrier invites and checks keys', async () => {
      const shipper = await app.carrier({ scopes: ['cadastros'], carrier: false, fiscalReady: false });
      expect((await shipper.call('POST', CONVITES, { cnpj: randomCnpj(), contato })).status).toBe(201);
      expect((await shipper.call('POST', '/v1/chaves-pix/verificacao', { chave: JOAO })).status).toBe(200);
      expect((await shipper.call('GET', '/v1/agregados')).body.meta.total).toBe(0);
    });
  });

  // Last: it moves the service clock forward.
  describe('expiry (service clock)', () => {
    it('after 7 days a pending invitation reads expirado; inviting again records the expiry and creates a new one', async () => {
      const cnpj = randomCnpj();
      const sent = (await a.call('POST', CONVITES, { cnpj, contato })).body.data;
      offsetMs = 7 * DIA - 60_000;
      expect((await a.call('GET', `${CONVITES}/${sent.id}`)).body.data.estado).toBe('pendente');
      expect((await a.call('POST', CONVITES, { cnpj, contato })).status).toBe(200);
      offsetMs = 7 * DIA + 60_000;
      const expired = (await a.call('GET', `${CONVITES}/${sent.id}`)).body.data;
      expect(expired).toMatchObject({ estado: 'expirado', expirado_em: sent.expira_em, aceito_em: null });
      expect((await a.call('GET', `${CONVITES}?estado=expirado&cnpj=${cnpj}`)).body.data.map((x: { id: string }) => x.id)).toEqual([
        sent.id,
      ]);
      const renewed = await a.call('POST', CONVITES, { cnpj, contato });
      expect(renewed.status).toBe(201);
      expect(renewed.body.data).toMatchObject({ estado: 'pendente', cnpj });
      expect(renewed.body.data.id).not.toBe(sent.id);
      expect(await streamTypes(a.companyId, cnpj)).toEqual(['convite.enviado', 'convite.expirado', 'convite.enviado']);
      const { rows } = await app.running.platform.pool.query('SELECT estado, expirado_em FROM rm.convites WHERE convite_id = $1', [
        sent.id,
      ]);
      expect(rows[0]).toEqual({ estado: 'expirado', expirado_em: new Date(sent.expira_em) });
      const list = (await a.call('GET', `${CONVITES}?cnpj=${cnpj}`)).body.data;
      expect(list.map((x: { id: string; estado: string }) => [x.id, x.estado])).toEqual([
        [renewed.body.data.id, 'pendente'],
        [sent.id, 'expirado'],
      ]);
    });
  });
});
