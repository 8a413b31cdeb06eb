import { autorizacaoAtiva } from '@frete/projections';
import { cnpjCheckDigits, formatCnpj } from '@frete/domain';
import { expectError, randomCnpj, request, startTestApp, type TestApp, type TestCarrier } from '../support/app';

const PATH = '/v1/fiscal/cte-subcontratacao/autorizacoes';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The same CNPJ with its last check digit changed. */
const wrongDigits = (cnpj: string) => cnpj.slice(0, 13) + String((Number(cnpj[13]) + 1) % 10);

describe('/fiscal/cte-subcontratacao/autorizacoes', () => {
  let app: TestApp;
  let sub: TestCarrier; // the subcontractor, who grants
  let con: TestCarrier; // a contractor
  let alnum: TestCarrier; // a contractor with an alphanumeric CNPJ
  let third: TestCarrier; // an unrelated carrier
  let grantId: string;

  beforeAll(async () => {
    app = await startTestApp();
    sub = await app.carrier({ name: 'SUBCONTRATADA TRANSPORTES LTDA' });
    con = await app.carrier({ name: 'CONTRATANTE LOGISTICA SA' });
    alnum = await app.carrier({ cnpj: randomCnpj(true), name: 'CONTRATANTE ALFA LTDA' });
    third = await app.carrier({ name: 'TERCEIRA TRANSPORTES LTDA' });
  });
  afterAll(() => app?.close());

  it('starts with nothing in either direction', async () => {
    const res = await sub.call('GET', PATH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { concedidas: [], recebidas: [] }, environment: 'homologacao' });
  });

  it('201 creates the grant (masked CNPJ); 200 with the same grant when already active (unmasked)', async () => {
    const created = await sub.call('POST', PATH, { contratante: { cnpj: formatCnpj(con.cnpj) } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      environment: 'homologacao',
      data: {
        id: expect.stringMatching(UUID),
        contratante: { cnpj: con.cnpj, nome: 'CONTRATANTE LOGISTICA SA' },
        subcontratada: { cnpj: sub.cnpj, nome: 'SUBCONTRATADA TRANSPORTES LTDA' },
        status: 'ativa',
        concedida_em: expect.stringMatching(ISO),
        revogada_em: null,
      },
    });
    grantId = created.body.data.id;
    const again = await sub.call('POST', PATH, { contratante: { cnpj: con.cnpj } });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(created.body.data);
  });

  it('accepts an alphanumeric CNPJ, masked and in lower case', async () => {
    const masked = formatCnpj(alnum.cnpj).toLowerCase();
    const res = await sub.call('POST', PATH, { contratante: { cnpj: masked } });
    expect(res.status).toBe(201);
    expect(res.body.data.contratante).toEqual({ cnpj: alnum.cnpj, nome: 'CONTRATANTE ALFA LTDA' });
    expect(alnum.cnpj).toMatch(/^[A-Z0-9]{12}[0-9]{2}$/);
  });

  it('lists the grant as concedida for the subcontractor and recebida for the contractor, at once', async () => {
    const mine = await sub.call('GET', PATH);
    expect(mine.status).toBe(200);
    expect(mine.body.data.concedidas.map((g: { contratante: { cnpj: string } }) => g.contratante.cnpj)).toEqual([con.cnpj, alnum.cnpj]);
    expect(mine.body.data.recebidas).toEqual([]);
    // The contractor has written nothing itself: the grant recorded its watermark too, so its GET waits for the grant.
    const theirs = await con.call('GET', PATH);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.concedidas).toEqual([]);
    expect(theirs.body.data.recebidas).toEqual([mine.body.data.concedidas[0]]);
    expect(theirs.body.data.recebidas[0]).toMatchObject({ id: grantId, subcontratada: { cnpj: sub.cnpj } });
  });

  it("422 contratante_invalida for the caller's own CNPJ", async () => {
    const body = expectError(await sub.call('POST', PATH, { contratante: { cnpj: formatCnpj(sub.cnpj) } }), 422, 'contratante_invalida');
    expect(body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['contratante.cnpj']);
  });

  it('422 contratante_invalida for wrong check digits, naming the field', async () => {
    const body = expectError(await sub.call('POST', PATH, { contratante: { cnpj: wrongDigits(con.cnpj) } }), 422, 'contratante_invalida');
    expect(body.error.details.fields).toEqual([{ field: 'contratante.cnpj', message: expect.any(String) }]);
    const base = alnum.cnpj.slice(0, 12);
    const bad = base + (cnpjCheckDigits(base) === '00' ? '11' : '00');
    expectError(await sub.call('POST', PATH, { contratante: { cnpj: bad } }), 422, 'contratante_invalida');
    expectError(await sub.call('POST', PATH, { contratante: { cnpj: 'abc' } }), 422, 'contratante_invalida');
  });

  it('404 contratante_nao_encontrada for an unknown CNPJ and for a company that is not a carrier', async () => {
    expectError(await sub.call('POST', PATH, { contratante: { cnpj: randomCnpj() } }), 404, 'contratante_nao_encontrada');
    const shipper = await app.carrier({ carrier: false, name: 'EMBARCADOR SA' });
    expectError(await sub.call('POST', PATH, { contratante: { cnpj: shipper.cnpj } }), 404, 'contratante_nao_encontrada');
  });

  it('400 validacao for a missing body, a missing field, a wrong type or an unknown field', async () => {
    expectError(await sub.call('POST', PATH), 400, 'validacao');
    const missing = expectError(await sub.call('POST', PATH, {}), 400, 'validacao');
    expect(missing.error.details.fields[0].field).toBe('contratante');
    const inner = expectError(await sub.call('POST', PATH, { contratante: {} }), 400, 'validacao');
    expect(inner.error.details.fields[0].field).toBe('contratante.cnpj');
    // The API's AJV coerces scalars (a number becomes its digits); an object or null is not a string.
    expectError(await sub.call('POST', PATH, { contratante: { cnpj: { numero: con.cnpj } } }), 400, 'validacao');
    expectError(await sub.call('POST', PATH, { contratante: { cnpj: null } }), 400, 'validacao');
    expectError(await sub.call('POST', PATH, { contratante: con.cnpj }), 400, 'validacao');
    expectError(await sub.call('POST', PATH, { contratante: { cnpj: con.cnpj, nome: 'x' } }), 400, 'validacao');
  });

  it("keeps tenants apart: a third company sees nothing and cannot revoke another's grant", async () => {
    const res = await third.call('GET', PATH);
    expect(res.body.data).toEqual({ concedidas: [], recebidas: [] });
    expectError(await third.call('DELETE', `${PATH}/${con.cnpj}`), 404, 'autorizacao_nao_encontrada');
    // Nor can the contractor revoke what it received: only the subcontractor who granted it.
    expectError(await con.call('DELETE', `${PATH}/${sub.cnpj}`), 404, 'autorizacao_nao_encontrada');
    expect((await con.call('GET', PATH)).body.data.recebidas).toHaveLength(1);
  });

  it('autorizacaoAtiva finds the active grant in its direction only', async () => {
    const row = await autorizacaoAtiva(app.db.pool, sub.companyId, con.companyId);
    expect(row).toMatchObject({ autorizacao_id: grantId, status: 'ativa', contratante_cnpj: con.cnpj });
    expect(await autorizacaoAtiva(app.db.pool, con.companyId, sub.companyId)).toBeNull();
    expect(await autorizacaoAtiva(app.db.pool, third.companyId, con.companyId)).toBeNull();
  });

  it('DELETE (masked CNPJ, `/` encoded) revokes: 200, gone from both lists, row kept for audit', async () => {
    const res = await sub.call('DELETE', `${PATH}/${encodeURIComponent(formatCnpj(con.cnpj))}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: grantId,
      status: 'revogada',
      revogada_em: expect.stringMatching(ISO),
      contratante: { cnpj: con.cnpj },
    });
    expect(new Date(res.body.data.revogada_em).getTime()).toBeGreaterThanOrEqual(new Date(res.body.data.concedida_em).getTime());
    const mine = await sub.call('GET', PATH);
    expect(mine.body.data.concedidas.map((g: { contratante: { cnpj: string } }) => g.contratante.cnpj)).toEqual([alnum.cnpj]);
    expect((await con.call('GET', PATH)).body.data.recebidas).toEqual([]);
    const kept = await app.db.pool.query(`SELECT status, revogada_em FROM rm.autorizacoes WHERE autorizacao_id = $1`, [grantId]);
    expect(kept.rows).toEqual([{ status: 'revogada', revogada_em: expect.any(Date) }]);
    expect(await autorizacaoAtiva(app.db.pool, sub.companyId, con.companyId)).toBeNull();
  });

  it('404 autorizacao_nao_encontrada when revoking again, or for an invalid CNPJ', async () => {
    expectError(await sub.call('DELETE', `${PATH}/${con.cnpj}`), 404, 'autorizacao_nao_encontrada');
    expectError(await sub.call('DELETE', `${PATH}/${wrongDigits(con.cnpj)}`), 404, 'autorizacao_nao_encontrada');
    expectError(await sub.call('DELETE', `${PATH}/nao-e-cnpj`), 404, 'autorizacao_nao_encontrada');
  });

  it('granting again after a revoke creates a new grant (201)', async () => {
    const res = await sub.call('POST', PATH, { contratante: { cnpj: con.cnpj } });
    expect(res.status).toBe(201);
    expect(res.body.data.id).not.toBe(grantId);
    expect(res.body.data.status).toBe('ativa');
    expect((await autorizacaoAtiva(app.db.pool, sub.companyId, con.companyId))?.autorizacao_id).toBe(res.body.data.id);
    const rows = await app.db.pool.query(
      `SELECT status FROM rm.autorizacoes WHERE subcontratada_id = $1 AND contratante_id = $2 ORDER BY concedida_em`,
      [sub.companyId, con.companyId],
    );
    expect(rows.rows.map((r) => r.status)).toEqual(['revogada', 'ativa']);
    expect((await con.call('GET', PATH)).body.data.recebidas.map((g: { id: string }) => g.id)).toEqual([res.body.data.id]);
  });

  it('DELETE with an unmasked alphanumeric CNPJ in lower case', async () => {
    const res = await sub.call('DELETE', `${PATH}/${alnum.cnpj.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'revogada', contratante: { cnpj: alnum.cnpj } });
  });

  it('leaves the history of the pair in its stream, in order, with who and why', async () => {
    const events = await app.running.platform.store.readStream(`autorizacao-${sub.companyId}-${con.cnpj}`);
    expect(events.map((e) => e.type)).toEqual(['autorizacao.concedida', 'autorizacao.revogada', 'autorizacao.concedida']);
    expect(events.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    expect(events[0]!.data).toEqual({
      autorizacao_id: grantId,
      subcontratada_id: sub.companyId,
      subcontratada_cnpj: sub.cnpj,
      subcontratada_nome: 'SUBCONTRATADA TRANSPORTES LTDA',
      contratante_id: con.companyId,
      contratante_cnpj: con.cnpj,
      contratante_nome: 'CONTRATANTE LOGISTICA SA',
    });
    expect(events[1]!.data).toEqual({
      autorizacao_id: grantId,
      subcontratada_id: sub.companyId,
      contratante_id: con.companyId,
      contratante_cnpj: con.cnpj,
    });
    expect(events[0]!.metadata).toMatchObject({ company_id: sub.companyId, actor: `credential:${sub.credentialId}` });
  });

  it('two simultaneous grants of the same pair: one 201, one 200, the same grant', async () => {
    const a = await app.carrier();
    const b = await app.carrier();
    const results = await Promise.all([1, 2, 3].map(() => a.call('POST', PATH, { contratante: { cnpj: b.cnpj } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    const events = await app.running.platform.store.readStream(`autorizacao-${a.companyId}-${b.cnpj}`);
    expect(events.map((e) => e.type)).toEqual(['autorizacao.concedida']);
  });

  it('rebuilds rm.autorizacoes row by row from the log (times come from the events, not the clock)', async () => {
    const rows = async () => (await app.db.pool.query(`SELECT * FROM rm.autorizacoes ORDER BY autorizacao_id`)).rows;
    const before = await rows();
    expect(before.length).toBeGreaterThanOrEqual(4);
    const projections = app.running.platform.projections;
    await projections.rebuild();
    await projections.start();
    expect(await rows()).toEqual(before);
  });

  it('401 without a credential; documented in /v1/openapi.json with response schemas', async () => {
    expectError(await request(`${app.url}${PATH}`, 'GET'), 401, 'nao_autenticado');
    const doc = (await request(`${app.url}/v1/openapi.json`, 'GET')).body;
    const list = doc.paths[PATH];
    const one = doc.paths[`${PATH}/{cnpj}`];
    expect(Object.keys(list.get.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '429', '500']));
    expect(Object.keys(list.post.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '404', '422']));
    expect(Object.keys(one.delete.responses)).toEqual(expect.arrayContaining(['200', '404']));
    expect(list.post.requestBody.content['application/json'].schema.properties.contratante).toBeDefined();
  });
});
