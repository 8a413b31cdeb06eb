import { expectError, request, startTestApp, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';

const PATH = '/v1/fiscal/regras-tributacao';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const fieldsOf = (res: ApiResponse): string[] => res.body.error.details.fields.map((f: { field: string }) => f.field);
const idsOf = (res: ApiResponse): number[] => res.body.data.map((r: { id: number }) => r.id);

describe('/fiscal/regras-tributacao', () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;
  let minimaId: number;
  let fullId: number;

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier();
    other = await app.carrier();
  });
  afterAll(() => app?.close());

  it('starts empty', async () => {
    const res = await c.call('GET', PATH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 }, environment: 'homologacao' });
  });

  it('201 for the smallest body (ruling 20), id 1', async () => {
    const res = await c.call('POST', PATH, { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      environment: 'homologacao',
      data: {
        id: 1,
        uf_origem: 'SP',
        uf_destino: 'RJ',
        tp_serv: null,
        cfop: null,
        icms: { cst: '00', aliquota: 12, reducao_base: null },
        ibs_cbs: null,
        criada_em: expect.stringMatching(ISO),
        atualizada_em: expect.stringMatching(ISO),
      },
    });
    minimaId = res.body.data.id;
  });

  it('201 for a full body with tp_serv, CFOP, reduced base and IBS/CBS', async () => {
    const body = {
      uf_origem: 'SP',
      uf_destino: 'RJ',
      tp_serv: 1,
      cfop: '6360',
      icms: { cst: '20', aliquota: 12, reducao_base: 33.33 },
      ibs_cbs: { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 0.1, aliquota_ibs_mun: 0, aliquota_cbs: 0.9 },
    };
    const res = await c.call('POST', PATH, body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ ...body, id: 2 });
    fullId = res.body.data.id;
    expect((await c.call('GET', `${PATH}/${fullId}`)).body.data).toEqual(res.body.data);
  });

  it('each company numbers its own rules from 1', async () => {
    const res = await other.call('POST', PATH, { uf_origem: 'MG', uf_destino: 'MG', icms: { cst: '40' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: 1, icms: { cst: '40', aliquota: 0, reducao_base: null } });
  });

  describe('400 validacao names each field', () => {
    const cases: [string, unknown, string[]][] = [
      ['no icms', { uf_origem: 'SP', uf_destino: 'RJ' }, ['icms']],
      ['unknown UF', { uf_origem: 'XX', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12 } }, ['uf_origem']],
      ['unknown CST', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '10', aliquota: 12 } }, ['icms.cst']],
      ['rate above 100', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 101 } }, ['icms.aliquota']],
      ['rate with 3 decimals', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12.345 } }, ['icms.aliquota']],
      ['CST 00 without a rate', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00' } }, ['icms.aliquota']],
      ['CST 00 with rate 0', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 0 } }, ['icms.aliquota']],
      ['CST 20 without reduction', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '20', aliquota: 12 } }, ['icms.reducao_base']],
      [
        'CST 20 with reduction 100',
        { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '20', aliquota: 12, reducao_base: 100 } },
        ['icms.reducao_base'],
      ],
      [
        'CST 00 with reduction',
        { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12, reducao_base: 10 } },
        ['icms.reducao_base'],
      ],
      ['CST 41 with a rate', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '41', aliquota: 12 } }, ['icms.aliquota']],
      ['CST SN with a rate', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: 'SN', aliquota: 4 } }, ['icms.aliquota']],
      ['tp_serv 4', { uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 4, icms: { cst: '00', aliquota: 12 } }, ['tp_serv']],
      ['CFOP not 4 digits', { uf_origem: 'SP', uf_destino: 'RJ', cfop: '636', icms: { cst: '00', aliquota: 12 } }, ['cfop']],
      ['CFOP 5xxx between UFs', { uf_origem: 'SP', uf_destino: 'RJ', cfop: '5360', icms: { cst: '00', aliquota: 12 } }, ['cfop']],
      ['CFOP 6xxx inside one UF', { uf_origem: 'SP', uf_destino: 'SP', cfop: '6360', icms: { cst: '00', aliquota: 12 } }, ['cfop']],
      ['unknown field', { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12 }, pis: 1 }, ['pis']],
      [
        'IBS/CBS codes',
        {
          uf_origem: 'SP',
          uf_destino: 'RJ',
          icms: { cst: '00', aliquota: 12 },
          ibs_cbs: { cst: '00', cclass_trib: '1', aliquota_ibs_uf: 0.1, aliquota_ibs_mun: 0, aliquota_cbs: 0.9 },
        },
        ['ibs_cbs.cst', 'ibs_cbs.cclass_trib'],
      ],
      [
        'IBS/CBS rate missing',
        {
          uf_origem: 'SP',
          uf_destino: 'RJ',
          icms: { cst: '00', aliquota: 12 },
          ibs_cbs: { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 0.1, aliquota_ibs_mun: 0 },
        },
        ['ibs_cbs.aliquota_cbs'],
      ],
      [
        'IBS/CBS rate with 3 decimals',
        {
          uf_origem: 'SP',
          uf_destino: 'RJ',
          icms: { cst: '00', aliquota: 12 },
          ibs_cbs: { cst: '000', cclass_trib: '000001', aliquota_ibs_uf: 0.125, aliquota_ibs_mun: 0, aliquota_cbs: 0.9 },
        },
        ['ibs_cbs.aliquota_ibs_uf'],
      ],
    ];
    it.each(cases)('%s', async (_name, body, fields) => {
      const res = await c.call('POST', PATH, body);
      expectError(res, 400, 'validacao');
      expect(fieldsOf(res)).toEqual(fields);
    });

    it('PUT validates alike', async () => {
      const res = await c.call('PUT', `${PATH}/${minimaId}`, { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '51', aliquota: 3 } });
      expectError(res, 400, 'validacao');
      expect(fieldsOf(res)).toEqual(['icms.aliquota']);
    });

    it('list and aplicavel validate their query', async () => {
      const big = await c.call('GET', `${PATH}?per_page=101`);
      expectError(big, 400, 'validacao');
      expect(fieldsOf(big)).toEqual(['querystring.per_page']);
      expectError(await c.call('GET', `${PATH}?page=0`), 400, 'validacao');
      expectError(await c.call('GET', `${PATH}?uf_origem=XX`), 400, 'validacao');
      expectError(await c.call('GET', `${PATH}?tp_serv=9`), 400, 'validacao');
      const res = await c.call('GET', `${PATH}/aplicavel?uf_origem=SP`);
      expectError(res, 400, 'validacao');
      expect(fieldsOf(res)).toEqual(['querystring.uf_destino']);
    });
  });

  it('422 regra_tributacao_duplicada for a second rule of the same pair and tp_serv (general or not)', async () => {
    expectError(
      await c.call('POST', PATH, { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 7 } }),
      422,
      'regra_tributacao_duplicada',
    );
    expectError(
      await c.call('POST', PATH, { uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 1, icms: { cst: '00', aliquota: 7 } }),
      422,
      'regra_tributacao_duplicada',
    );
    // PUT onto another rule's key is refused too.
    expectError(
      await c.call('PUT', `${PATH}/${fullId}`, { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 7 } }),
      422,
      'regra_tributacao_duplicada',
    );
  });

  it("GET one; 404 for another company's id, an unknown id and a non-integer id", async () => {
    const res = await c.call('GET', `${PATH}/${minimaId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(minimaId);
    const othersId = (await other.call('GET', PATH)).body.data[0].id;
    expect(othersId).toBe(1);
    // The other company's rule 1 is not c's rule 1: c sees its own.
    expect((await c.call('GET', `${PATH}/1`)).body.data.uf_origem).toBe('SP');
    expectError(await other.call('GET', `${PATH}/${fullId}`), 404, 'nao_encontrado');
    expectError(await c.call('GET', `${PATH}/999`), 404, 'nao_encontrado');
    expectError(await c.call('GET', `${PATH}/abc`), 404, 'nao_encontrado');
    expectError(await c.call('GET', `${PATH}/0`), 404, 'nao_encontrado');
    expectError(
      await other.call('PUT', `${PATH}/${fullId}`, { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 7 } }),
      404,
      'nao_encontrado',
    );
    expectError(
      await c.call('PUT', `${PATH}/abc`, { uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 7 } }),
      404,
      'nao_encontrado',
    );
    expectError(await other.call('DELETE', `${PATH}/${fullId}`), 404, 'nao_encontrado');
    expectError(await c.call('DELETE', `${PATH}/abc`), 404, 'nao_encontrado');
  });

  it('PUT replaces the whole rule (omitted fields cleared) and keeps the id', async () => {
    const before = (await c.call('GET', `${PATH}/${fullId}`)).body.data;
    const res = await c.call('PUT', `${PATH}/${fullId}`, {
      uf_origem: 'SP',
      uf_destino: 'RJ',
      tp_serv: 1,
      icms: { cst: '60', aliquota: 12.5 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...before,
      cfop: null,
      icms: { cst: '60', aliquota: 12.5, reducao_base: null },
      ibs_cbs: null,
      atualizada_em: expect.stringMatching(ISO),
    });
    expect(res.body.data.criada_em).toBe(before.criada_em);
    // The same body again changes nothing and still answers 200.
    const again = await c.call('PUT', `${PATH}/${fullId}`, {
      uf_origem: 'SP',
      uf_destino: 'RJ',
      tp_serv: 1,
      icms: { cst: '60', aliquota: 12.5 },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
  });

  describe('aplicavel: precedence', () => {
    const aplicavel = (qs: string) => c.call('GET', `${PATH}/aplicavel?${qs}`);

    it('the tp_serv rule wins over the general one', async () => {
      const res = await aplicavel('uf_origem=SP&uf_destino=RJ&tp_serv=1');
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(fullId);
      expect(res.body.environment).toBe('homologacao');
    });

    it('the general rule applies with another tp_serv, or none', async () => {
      expect((await aplicavel('uf_origem=SP&uf_destino=RJ&tp_serv=2')).body.data.id).toBe(minimaId);
      expect((await aplicavel('uf_origem=SP&uf_destino=RJ')).body.data.id).toBe(minimaId);
    });

    it('422 sem_regra_tributacao without a rule of the pair', async () => {
      const body = expectError(await aplicavel('uf_origem=RJ&uf_destino=SP&tp_serv=1'), 422, 'sem_regra_tributacao');
      expect(body.error.details).toEqual({ uf_origem: 'RJ', uf_destino: 'SP', tp_serv: 1 });
      // Another company's rules never apply.
      expectError(await aplicavel('uf_origem=MG&uf_destino=MG'), 422, 'sem_regra_tributacao');
    });

    it('only a tp_serv rule and no general one: other types get none', async () => {
      const created = await c.call('POST', PATH, {
        uf_origem: 'PR',
        uf_destino: 'SC',
        tp_serv: 2,
        cfop: '6932',
        icms: { cst: '90', aliquota: 0 },
      });
      expect(created.status).toBe(201);
      expect((await aplicavel('uf_origem=PR&uf_destino=SC&tp_serv=2')).body.data.id).toBe(created.body.data.id);
      expectError(await aplicavel('uf_origem=PR&uf_destino=SC&tp_serv=0'), 422, 'sem_regra_tributacao');
      expectError(await aplicavel('uf_origem=PR&uf_destino=SC'), 422, 'sem_regra_tributacao');
    });
  });

  it('lists with filters and pagination', async () => {
    await c.call('POST', PATH, { uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 0, icms: { cst: '00', aliquota: 12 } });
    await c.call('POST', PATH, { uf_origem: 'SP', uf_destino: 'SP', icms: { cst: 'SN' } });
    const all = await c.call('GET', PATH);
    expect(all.status).toBe(200);
    // Origin, destination, the general rule first, then tp_serv.
    expect(
      all.body.data.map(
        (r: { uf_origem: string; uf_destino: string; tp_serv: number | null }) => `${r.uf_origem}>${r.uf_destino}:${r.tp_serv ?? '*'}`,
      ),
    ).toEqual(['PR>SC:2', 'SP>RJ:*', 'SP>RJ:0', 'SP>RJ:1', 'SP>SP:*']);
    expect(all.body.meta).toEqual({ page: 1, per_page: 20, total: 5 });

    const byOrigin = await c.call('GET', `${PATH}?uf_origem=SP&uf_destino=RJ`);
    expect(byOrigin.body.meta.total).toBe(3);
    const byType = await c.call('GET', `${PATH}?tp_serv=1`);
    expect(idsOf(byType)).toEqual([fullId]);
    const byDest = await c.call('GET', `${PATH}?uf_destino=SP`);
    expect(byDest.body.data).toHaveLength(1);

    const page2 = await c.call('GET', `${PATH}?page=2&per_page=2`);
    expect(page2.body.meta).toEqual({ page: 2, per_page: 2, total: 5 });
    expect(idsOf(page2)).toEqual(idsOf(all).slice(2, 4));
    const beyond = await c.call('GET', `${PATH}?page=9&per_page=2`);
    expect(beyond.body).toMatchObject({ data: [], meta: { page: 9, per_page: 2, total: 5 } });
  });

  it('DELETE 204; the rule is gone, its id not reused, and the general rule applies again', async () => {
    const res = await c.call('DELETE', `${PATH}/${fullId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await c.call('GET', `${PATH}/${fullId}`), 404, 'nao_encontrado');
    expectError(await c.call('DELETE', `${PATH}/${fullId}`), 404, 'nao_encontrado');
    expect((await c.call('GET', `${PATH}/aplicavel?uf_origem=SP&uf_destino=RJ&tp_serv=1`)).body.data.id).toBe(minimaId);
    const recreated = await c.call('POST', PATH, { uf_origem: 'SP', uf_destino: 'RJ', tp_serv: 1, icms: { cst: '00', aliquota: 12 } });
    expect(recreated.status).toBe(201);
    expect(recreated.body.data.id).toBe(6);
  });

  it('keeps the registry history in one stream per company, in order', async () => {
    const events = await app.running.platform.store.readStream(`regras-tributacao-${c.companyId}`);
    expect(events.map((e) => e.type)).toEqual([
      'regra_tributacao.criada',
      'regra_tributacao.criada',
      'regra_tributacao.alterada',
      'regra_tributacao.criada',
      'regra_tributacao.criada',
      'regra_tributacao.criada',
      'regra_tributacao.removida',
      'regra_tributacao.criada',
    ]);
    expect(events.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
    expect(events[1]!.data).toEqual({
      company_id: c.companyId,
      regra_id: 2,
      regra: {
        uf_origem: 'SP',
        uf_destino: 'RJ',
        tp_serv: 1,
        cfop: '6360',
        icms: { cst: '20', aliquota_centesimos: 1200, reducao_base_centesimos: 3333 },
        ibs_cbs: {
          cst: '000',
          cclass_trib: '000001',
          aliquota_ibs_uf_centesimos: 10,
          aliquota_ibs_mun_centesimos: 0,
          aliquota_cbs_centesimos: 90,
        },
      },
    });
    expect(events[6]!.data).toEqual({ company_id: c.companyId, regra_id: 2 });
    expect(events[0]!.metadata).toMatchObject({ company_id: c.companyId, actor: `credential:${c.credentialId}` });
  });

  it('rebuilds rm.regras_tributacao from the log', async () => {
    const rows = async () => (await app.db.pool.query('SELECT * FROM rm.regras_tributacao ORDER BY company_id, regra_id')).rows;
    const before = await rows();
    expect(before.length).toBeGreaterThanOrEqual(6);
    const projections = app.running.platform.projections;
    await projections.rebuild();
    await projections.start();
    expect(await rows()).toEqual(before);
  });

  it('401 without a credential; 403 without the fiscal scope; documented with response schemas', async () => {
    expectError(await request(`${app.url}${PATH}`, 'GET'), 401, 'nao_autenticado');
    const noScope = await app.carrier({ scopes: ['cadastros'] });
    expectError(await noScope.call('GET', PATH), 403, 'escopo_nao_habilitado');
    const doc = (await request(`${app.url}/v1/openapi.json`, 'GET')).body;
    const list = doc.paths['/v1/fiscal/regras-tributacao'].get;
    expect(list.description).toMatch(/tp_serv/);
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429', '500']));
    expect(Object.keys(doc.paths['/v1/fiscal/regras-tributacao/aplicavel'].get.responses)).toEqual(expect.arrayContaining(['200', '422']));
    expect(Object.keys(doc.paths['/v1/fiscal/regras-tributacao/{id}'].delete.responses)).toEqual(expect.arrayContaining(['204', '404']));
  });
});
