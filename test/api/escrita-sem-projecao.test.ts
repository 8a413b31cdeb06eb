import { randomCnpj, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml, nfeKey } from '../support/cte-xml';

/**
 * Issue 26, point 2: a command that committed answers its success from what it recorded, even when the read models
 * lag far behind (here: stopped); once the projector runs again, the reads agree with the answer.
 */
describe('writes answer what they recorded while the read models are stopped', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  let c: TestCarrier;

  /** Runs `act` with the projector stopped (after catching up), then starts it again and waits until the read models caught up. */
  async function semProjecao<T>(act: () => Promise<T>): Promise<T> {
    // What the test set up before (companies, documents) is in the read models; only `act`'s writes are held back.
    await app.running.platform.projections.catchUp();
    await app.running.platform.projections.stop();
    let result: T;
    try {
      result = await act();
    } finally {
      await app.running.platform.projections.start();
    }
    await app.running.platform.projections.catchUp();
    return result;
  }

  beforeAll(async () => {
    // A read that waits for a write gives up after 150 ms: with the projector stopped, every wait times out.
    app = await startTestApp({ READ_YOUR_WRITES_TIMEOUT_MS: '150', WEBHOOKS_ALLOWED_HOSTS: '127.0.0.1' });
    c = await app.carrier({ scopes: ['fiscal', 'operacao', 'cadastros', 'webhooks'] });
  });
  afterAll(() => app?.close());

  it('POST /conta-operacional/creditos: 201 with the movement and the balance, 200 on a repeat; the statement agrees', async () => {
    const credit = (referencia: string, valor: number) => c.call('POST', '/v1/conta-operacional/creditos', { valor, referencia });
    const [first, again, second] = await semProjecao(async () => {
      const a = await credit('DEP-1', 100.5);
      const b = await credit('DEP-1', 100.5);
      const d = await credit('DEP-2', 20);
      // The read model has not seen the credits: the statement is still empty (no 5xx either).
      expect((await c.call('GET', '/v1/conta-operacional/extrato')).body.data).toEqual([]);
      return [a, b, d];
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      movimento: expect.objectContaining({ sequencia: 1, tipo: 'credito', valor: 100.5, saldo_apos: 100.5, referencia: 'DEP-1' }),
      saldo: 100.5,
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(second.status).toBe(201);
    expect(second.body.data).toEqual({
      movimento: expect.objectContaining({ sequencia: 2, valor: 20, saldo_apos: 120.5, referencia: 'DEP-2' }),
      saldo: 120.5,
    });
    const extrato = (await c.call('GET', '/v1/conta-operacional/extrato?per_page=100')).body.data as { sequencia: number }[];
    expect([...extrato].sort((x, y) => x.sequencia - y.sequencia)).toEqual([first.body.data.movimento, second.body.data.movimento]);
    expect((await c.call('GET', '/v1/conta-operacional')).body.data.saldo).toBe(120.5);
  });

  it.each([
    {
      path: '/v1/fiscal/motoristas',
      criar: { cpf: '52998224725', nome: 'MOTORISTA SEM PROJECAO', chave_pix: { tipo: 'cpf', valor: '52998224725' } },
      alterar: { cpf: '52998224725', nome: 'MOTORISTA ALTERADO', telefone: '11987654321' },
    },
    {
      path: '/v1/fiscal/veiculos',
      criar: { placa: 'QWE1R23', tara_kg: 8000, capacidade_kg: 20000, capacidade_m3: 80, tipo_rodado: '03' },
      alterar: { placa: 'QWE1R23', renavam: '00639884962', uf: 'SP' },
    },
    {
      path: '/v1/fiscal/regras-tributacao',
      criar: { uf_origem: 'SP', uf_destino: 'MG', icms: { cst: '20', aliquota: 12, reducao_base: 33.33 } },
      alterar: { uf_origem: 'SP', uf_destino: 'MG', tp_serv: 1, cfop: '6352', icms: { cst: '00', aliquota: 7 } },
    },
  ])('POST and PUT $path: 201 and 200 with the entry as recorded; the GET agrees once caught up', async ({ path, criar, alterar }) => {
    const [created, changed, unchanged] = await semProjecao(async () => {
      const a = await c.call('POST', path, criar);
      expect(a.status).toBe(201);
      // The read model has not seen the entry (no 5xx either).
      expect((await c.call('GET', `${path}/${a.body.data.id}`)).status).toBe(404);
      const b = await c.call('PUT', `${path}/${a.body.data.id}`, alterar);
      const d = await c.call('PUT', `${path}/${a.body.data.id}`, alterar);
      return [a, b, d];
    });
    const id = created.body.data.id as number;
    expect(created.body.data.cadastrado_em ?? created.body.data.criada_em).toEqual(expect.stringMatching(/Z$/));
    expect(changed.status).toBe(200);
    expect(changed.body.data.id).toBe(id);
    expect(unchanged.status).toBe(200);
    // The same entry again (a registry may record the repeat: its time is then the repeat's).
    const semHora = ({ atualizado_em: _a, atualizada_em: _b, ...resto }: Record<string, unknown>) => resto;
    expect(semHora(unchanged.body.data)).toEqual(semHora(changed.body.data));
    const read = await c.call('GET', `${path}/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(unchanged.body);
    // The creation's answer is the row the projector wrote for it: the update changed the data and its time only.
    const { atualizado_em, atualizada_em } = created.body.data;
    expect(created.body.data.cadastrado_em ?? created.body.data.criada_em).toBe(read.body.data.cadastrado_em ?? read.body.data.criada_em);
    expect(atualizado_em ?? atualizada_em).toBe(created.body.data.cadastrado_em ?? created.body.data.criada_em);
  });

  it('webhooks: create, change, rotate and re-enable answer the endpoint as recorded; the GET agrees once caught up', async () => {
    const [created, changed, rotated, reenabled] = await semProjecao(async () => {
      const a = await c.call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/sem-projecao', eventos: ['cte.autorizado'] });
      expect(a.status).toBe(201);
      const id = a.body.data.id as string;
      expect((await c.call('GET', `/v1/webhooks/${id}`)).status).toBe(404);
      const b = await c.call('PATCH', `/v1/webhooks/${id}`, { descricao: 'ERP', eventos: ['cte.autorizado', 'cte.cancelado'] });
      const d = await c.call('POST', `/v1/webhooks/${id}/segredo`);
      const e = await c.call('POST', `/v1/webhooks/${id}/reativar`);
      return [a, b, d, e];
    });
    expect(created.body.data).toMatchObject({
      url: 'http://127.0.0.1:9/sem-projecao',
      eventos: ['cte.autorizado'],
      descricao: null,
      ativo: true,
      segredo_versao: 1,
      secret: expect.any(String),
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ descricao: 'ERP', eventos: ['cte.autorizado', 'cte.cancelado'], segredo_versao: 1 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({ segredo_versao: 2, secret: expect.any(String) });
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);
    expect(rotated.body.data.segredo_impressao).not.toBe(created.body.data.segredo_impressao);
    expect(reenabled.status).toBe(200);
    const { secret: _secret, ...semSegredo } = rotated.body.data;
    expect(reenabled.body.data).toEqual(semSegredo);
    const read = await c.call('GET', `/v1/webhooks/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(reenabled.body);
  });

  it('POST /convites/transportadoras: 201 with the pending invitation, 200 with the same one on a repeat; the GET agrees', async () => {
    const body = { cnpj: randomCnpj(), razao_social: 'CONVIDADA LTDA', contato: { nome: 'Ana', email: 'ana@example.com' } };
    const [first, again] = await semProjecao(async () => {
      const a = await c.call('POST', '/v1/convites/transportadoras', body);
      expect((await c.call('GET', `/v1/convites/transportadoras/${a.body.data.id}`)).status).toBe(404);
      const b = await c.call('POST', '/v1/convites/transportadoras', { ...body, contato: { nome: 'Outra', email: 'outra@example.com' } });
      return [a, b];
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      cnpj: body.cnpj,
      razao_social: 'CONVIDADA LTDA',
      contato: { nome: 'Ana', email: 'ana@example.com', telefone: null },
      estado: 'pendente',
      aceito_em: null,
      expirado_em: null,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const read = await c.call('GET', `/v1/convites/transportadoras/${first.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(first.body);
  });

  it('emission grants: POST 201 and 200 on a repeat, DELETE 200 with the revoked grant; the GET agrees', async () => {
    const contratante = await app.carrier({ name: 'CONTRATANTE SEM PROJECAO SA' });
    const path = '/v1/fiscal/cte-subcontratacao/autorizacoes';
    const [granted, again, revoked] = await semProjecao(async () => {
      const a = await c.call('POST', path, { contratante: { cnpj: contratante.cnpj } });
      const b = await c.call('POST', path, { contratante: { cnpj: contratante.cnpj } });
      const d = await c.call('DELETE', `${path}/${contratante.cnpj}`);
      return [a, b, d];
    });
    expect([granted.status, granted.body.error]).toEqual([201, undefined]);
    expect(granted.body.data).toMatchObject({
      contratante: { cnpj: contratante.cnpj, nome: 'CONTRATANTE SEM PROJECAO SA' },
      subcontratada: { cnpj: c.cnpj },
      status: 'ativa',
      revogada_em: null,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(granted.body);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ ...granted.body.data, status: 'revogada', revogada_em: expect.stringMatching(/Z$/) });
    // The list shows active grants only; the read model's row has the answer's times.
    const read = await c.call('GET', path);
    expect(read.status).toBe(200);
    expect(read.body.data.concedidas.map((g: { id: string }) => g.id)).not.toContain(granted.body.data.id);
    const { rows } = await app.db.pool.query<{ concedida_em: Date; revogada_em: Date; status: string }>(
      'SELECT concedida_em, revogada_em, status FROM rm.autorizacoes WHERE autorizacao_id = $1',
      [granted.body.data.id],
    );
    expect(rows.map((r) => [r.status, r.concedida_em.toISOString(), r.revogada_em.toISOString()])).toEqual([
      ['revogada', revoked.body.data.concedida_em, revoked.body.data.revogada_em],
    ]);
  });

  it('POST /fiscal/cte-emitidos: 201 with the own CT-e as recorded, 200 on a resubmission; the GET agrees', async () => {
    const { xml } = buildCteXml({
      emitenteCnpj: c.cnpj,
      toma: 4,
      tomador4: { cnpj: randomCnpj(), nome: 'TOMADOR SA' },
      nfeChaves: [nfeKey()],
    });
    const [first, again] = await semProjecao(async () => {
      const a = await c.call('POST', '/v1/fiscal/cte-emitidos', { xml });
      expect((await c.call('GET', `/v1/fiscal/cte/${a.body.data.id}`)).status).toBe(404);
      return [a, await c.call('POST', '/v1/fiscal/cte-emitidos', { xml })];
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ first_reception: true, origem: 'cte_emitido', received_count: 1, handoffs: 0 });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ first_reception: false, id: first.body.data.id, received_count: 2 });
    const read = await c.call('GET', `/v1/fiscal/cte/${first.body.data.id}`);
    expect(read.status).toBe(200);
    const { first_reception: _f, ...cte } = again.body.data;
    expect(read.body.data).toEqual(cte);
  });

  it('POST /fiscal/cte-subcontratacao: 201 with the receipt as recorded, 200 on a resubmission; the GET agrees', async () => {
    const { xml, chave } = buildCteXml({ emitenteCnpj: randomCnpj(), emitenteNome: 'CONTRATANTE EXTERNA SA' });
    const [first, again] = await semProjecao(async () => {
      const a = await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml });
      expect((await c.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`)).status).toBe(404);
      return [a, await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml })];
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ status: 'recebido', received_count: 1, content_updated: false, delivered_by: null });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ received_count: 2, first_received_at: first.body.data.first_received_at });
    const read = await c.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(again.body);
  });

  it("POST /fiscal/cte/{id}/subcontratacao: 201 with the subcontractor's receipt as recorded; its GET agrees", async () => {
    const sub = await app.carrier({ name: 'SUBCONTRATADA SEM PROJECAO LTDA' });
    const built = buildCteXml({ emitenteCnpj: c.cnpj });
    const own = await c.call('POST', '/v1/fiscal/cte-emitidos', { xml: built.xml });
    expect(own.status).toBe(201);
    const handOff = () => c.call('POST', `/v1/fiscal/cte/${own.body.data.id}/subcontratacao`, { subcontratada: { cnpj: sub.cnpj } });
    const [first, again] = await semProjecao(async () => [await handOff(), await handOff()]);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      cte: { id: own.body.data.id, access_key: built.chave },
      subcontratada: { cnpj: sub.cnpj, nome: 'SUBCONTRATADA SEM PROJECAO LTDA' },
      recebimento: { access_key: built.chave, status: 'recebido', received_count: 1, content_updated: false },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.recebimento).toMatchObject({
      received_count: 2,
      first_received_at: first.body.data.recebimento.first_received_at,
    });
    const inbox = await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${built.chave}`);
    expect(inbox.status).toBe(200);
    const { access_key: _k, ...recebimento } = again.body.data.recebimento;
    expect(inbox.body.data).toMatchObject(recebimento);
  });

  it('POST /fiscal/cte (draft): 201 with the draft as recorded, the same draft on a keyed retry; the GET agrees', async () => {
    const headers = { 'Idempotency-Key': 'rascunho-sem-projecao' };
    const [first, again] = await semProjecao(async () => {
      const a = await c.call('POST', '/v1/fiscal/cte', { observacoes: 'SEM PROJECAO' }, headers);
      expect((await c.call('GET', `/v1/fiscal/cte/${a.body.data.id}`)).status).toBe(404);
      return [a, await c.call('POST', '/v1/fiscal/cte', { observacoes: 'SEM PROJECAO' }, headers)];
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ situacao: 'rascunho', origem: 'emissao', rascunho: { observacoes: 'SEM PROJECAO' } });
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    const read = await c.call('GET', `/v1/fiscal/cte/${first.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(first.body);
  });
});
