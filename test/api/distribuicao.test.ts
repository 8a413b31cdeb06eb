import { randomUUID } from 'node:crypto';
import { type DocumentoDistribuidoRegistrado, type ServicoDistribuicao } from '@frete/contracts';
import { type ResultadoConsulta } from '@frete/domain';
import { distribuicaoDe } from '@frete/projections';
import { expectError, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { nfeKey } from '../support/cte-xml';
import { emissora, pollUntil, rascunhoEmitivel } from '../support/emissora';

const NSU_ZERO = '000000000000000';
const HORA_S = 3600;

/**
 * Issue 30, point 5: the company's distribution over HTTP. The answers of the national environment are recorded
 * through the distribution handler, as the processor records them (`registrar`), so each state (137's wait, 656's
 * block, documents) is reached exactly; the second suite below runs the processor against the simulated service.
 */
describe('/v1/fiscal/distribuicao', () => {
  let app: TestApp;
  let a: TestCarrier;
  let b: TestCarrier;
  // The service clock runs ahead of the wall's by this much: the hour's wait passes without waiting an hour.
  let offsetMs = 0;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '100000' }, { clock: () => new Date(Date.now() + offsetMs) });
    a = await emissora(app, 'DISTRIBUICAO A TRANSPORTES LTDA');
    b = await emissora(app, 'DISTRIBUICAO B TRANSPORTES LTDA');
  });
  afterAll(() => app?.close());

  const ctxDe = (c: TestCarrier) => ({
    companyId: c.companyId,
    correlationId: randomUUID(),
    causationId: null,
    // With a request id the write records the company's watermark, so waitFor below waits for its projection.
    requestId: randomUUID(),
    actor: 'test:distribuicao',
    now: new Date(Date.now() + offsetMs),
  });

  /** What the processor records once the service answered the consultation in progress. */
  const responder = async (c: TestCarrier, servico: ServicoDistribuicao, consultaId: string, resultado: ResultadoConsulta) => {
    await app.running.application.handlers.distribuicao.registrar(ctxDe(c), c.companyId, servico, consultaId, resultado, randomUUID());
    await app.running.platform.readYourWrites.waitFor(c.companyId);
  };

  const consultaDe = (res: { body: { data: { consultas: { servico: string; consulta_id: string }[] } } }, servico: ServicoDistribuicao) =>
    res.body.data.consultas.find((x) => x.servico === servico)!.consulta_id;

  const nada = (nsu = NSU_ZERO): ResultadoConsulta => ({
    tipo: 'consultado',
    cstat: 137,
    motivo: 'Nenhum documento localizado',
    ult_nsu: nsu,
    max_nsu: nsu,
    documentos: [],
  });

  it('GET answers the defaults of the sandbox before any event: enabled, both services at NSU zero', async () => {
    const res = await a.call('GET', '/v1/fiscal/distribuicao');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        habilitada: true,
        servicos: (['cte', 'nfe'] as const).map((servico) => ({
          servico,
          ultimo_nsu: NSU_ZERO,
          max_nsu: null,
          proxima_consulta: null,
          bloqueado_ate: null,
          ultimo_cstat: null,
          ultimo_motivo: null,
          ultima_consulta_em: null,
          consulta_em_andamento: null,
          ultima_falha: null,
        })),
      },
      environment: 'homologacao',
    });
    // Production's default is off until the company turns it on (the same query, the other environment).
    expect(await distribuicaoDe(app.db.pool, a.companyId, 'producao')).toMatchObject({ habilitada: false, escolhida: false });
  });

  it('PUT turns it off and on (200 with the state, read at once); off, a consultation is 422 distribuicao_desabilitada', async () => {
    const off = await a.call('PUT', '/v1/fiscal/distribuicao', { habilitada: false });
    expect(off.status).toBe(200);
    expect(off.body.data.habilitada).toBe(false);
    expect(off.body.data.servicos.map((s: { servico: string }) => s.servico)).toEqual(['cte', 'nfe']);
    expect((await a.call('GET', '/v1/fiscal/distribuicao')).body.data.habilitada).toBe(false);
    // The company's choice now holds whatever the environment's default.
    expect(await distribuicaoDe(app.db.pool, a.companyId, 'homologacao')).toMatchObject({ habilitada: false, escolhida: true });

    const recusada = await a.call('POST', '/v1/fiscal/distribuicao/consultas');
    expectError(recusada, 422, 'distribuicao_desabilitada');
    expect((await a.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos[0].consulta_em_andamento).toBeNull();

    // Turning it off again changes nothing and answers the same.
    expect((await a.call('PUT', '/v1/fiscal/distribuicao', { habilitada: false })).body.data.habilitada).toBe(false);
    const on = await a.call('PUT', '/v1/fiscal/distribuicao', { habilitada: true });
    expect(on.status).toBe(200);
    expect(on.body.data.habilitada).toBe(true);
    // Another company's switch is its own.
    expect((await b.call('GET', '/v1/fiscal/distribuicao')).body.data.habilitada).toBe(true);
  });

  it('POST /consultas asks both services (202), shown in progress; asked again while in progress, the same consultations', async () => {
    const res = await a.call('POST', '/v1/fiscal/distribuicao/consultas');
    expect(res.status).toBe(202);
    expect(res.body.data.consultas).toEqual([
      { servico: 'cte', consulta_id: expect.any(String), ultimo_nsu: NSU_ZERO },
      { servico: 'nfe', consulta_id: expect.any(String), ultimo_nsu: NSU_ZERO },
    ]);
    const estado = (await a.call('GET', '/v1/fiscal/distribuicao')).body.data;
    for (const s of estado.servicos) {
      expect(s.consulta_em_andamento).toEqual({
        consulta_id: consultaDe(res, s.servico),
        origem: 'manual',
        solicitada_em: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
    }
    const outra = await a.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'cte' });
    expect(outra.status).toBe(202);
    expect(outra.body.data.consultas).toEqual([{ servico: 'cte', consulta_id: consultaDe(res, 'cte'), ultimo_nsu: NSU_ZERO }]);

    // After 137 on both, the hour's wait: 429 consulta_bloqueada with Retry-After, for one service or both.
    await responder(a, 'cte', consultaDe(res, 'cte'), nada());
    await responder(a, 'nfe', consultaDe(res, 'nfe'), nada());
    const [depois, depoisNfe] = (await a.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos;
    expect(depois).toMatchObject({
      servico: 'cte',
      ultimo_nsu: NSU_ZERO,
      max_nsu: NSU_ZERO,
      ultimo_cstat: 137,
      ultimo_motivo: 'Nenhum documento localizado',
      bloqueado_ate: null,
      consulta_em_andamento: null,
    });
    expect(Date.parse(depois.proxima_consulta) - Date.parse(depois.ultima_consulta_em)).toBe(HORA_S * 1000);

    for (const body of [undefined, { servico: 'nfe' }, {}]) {
      const bloqueada = await a.call('POST', '/v1/fiscal/distribuicao/consultas', body);
      expectError(bloqueada, 429, 'consulta_bloqueada');
      const retry = Number(bloqueada.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(HORA_S - 60);
      expect(retry).toBeLessThanOrEqual(HORA_S);
      // Asking both, the earlier of the two waits' ends: the first time one of them may be asked.
      const soNfe = body !== undefined && 'servico' in body;
      expect(bloqueada.body.error.details.tentar_apos).toBe(soNfe ? depoisNfe.proxima_consulta : depois.proxima_consulta);
      expect(bloqueada.body.error.details.servicos).toEqual(soNfe ? ['nfe'] : ['cte', 'nfe']);
    }
    // Nothing was asked meanwhile.
    expect(
      (await a.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos.map(
        (s: { consulta_em_andamento: unknown }) => s.consulta_em_andamento,
      ),
    ).toEqual([null, null]);

    // Once the hour has passed (the service clock moves), a consultation is asked again from the NSU reached.
    offsetMs += (HORA_S + 1) * 1000;
    const apos = await a.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'cte' });
    expect(apos.status).toBe(202);
    expect(apos.body.data.consultas).toEqual([{ servico: 'cte', consulta_id: expect.any(String), ultimo_nsu: NSU_ZERO }]);
    expect(consultaDe(apos, 'cte')).not.toBe(consultaDe(res, 'cte'));
  });

  it('a 656 block: bloqueado_ate shown, and 429 until it ends; a consultation without answer shows ultima_falha', async () => {
    const pedida = await b.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'nfe' });
    expect(pedida.status).toBe(202);
    await responder(b, 'nfe', consultaDe(pedida, 'nfe'), { tipo: 'rejeitado', cstat: 656, motivo: 'Rejeicao: Consumo Indevido' });
    const nfe = (await b.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos[1];
    expect(nfe).toMatchObject({ servico: 'nfe', ultimo_cstat: 656, ultimo_motivo: 'Rejeicao: Consumo Indevido', ultimo_nsu: NSU_ZERO });
    expect(nfe.bloqueado_ate).not.toBeNull();
    const bloqueada = await b.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'nfe' });
    expectError(bloqueada, 429, 'consulta_bloqueada');
    expect(bloqueada.body.error.details.tentar_apos).toBe(nfe.bloqueado_ate);
    expect(Number(bloqueada.headers.get('retry-after'))).toBeGreaterThan(HORA_S - 60);

    // The other service is not blocked: asking both asks only it.
    const ambas = await b.call('POST', '/v1/fiscal/distribuicao/consultas');
    expect(ambas.status).toBe(202);
    expect(ambas.body.data.consultas.map((c: { servico: string }) => c.servico)).toEqual(['cte']);
    await responder(b, 'cte', consultaDe(ambas, 'cte'), { tipo: 'falhou', motivo: 'no answer within 15000 ms', tentar_apos: null });
    const cte = (await b.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos[0];
    expect(cte).toMatchObject({
      ultimo_cstat: null,
      consulta_em_andamento: null,
      ultima_falha: { motivo: 'no answer within 15000 ms', falhou_em: expect.any(String) },
    });
    expect(cte.proxima_consulta).not.toBeNull();
  });

  describe('documents', () => {
    const chave = nfeKey();
    const xml = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<resNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.01"><chNFe>${chave}</chNFe>` +
        '<xNome>EMPRESA ÁGIL</xNome></resNFe>',
      'utf8',
    );
    let documentos: DocumentoDistribuidoRegistrado[];

    beforeAll(async () => {
      offsetMs += (HORA_S + 1) * 1000;
      const sha256 = await app.running.platform.documents.put(xml, 'application/xml');
      documentos = [
        { nsu: '000000000000001', schema: 'resNFe_v1.01.xsd', chave, sha256, destino: 'guardado', erro: null },
        { nsu: '000000000000002', schema: 'procNFe_v4.00.xsd', chave: null, sha256: null, destino: 'ilegivel', erro: 'the gzip is broken' },
      ];
      const pedida = await a.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'nfe' });
      expect(pedida.status).toBe(202);
      await responder(a, 'nfe', consultaDe(pedida, 'nfe'), {
        tipo: 'consultado',
        cstat: 138,
        motivo: 'Documento(s) localizado(s)',
        ult_nsu: '000000000000002',
        max_nsu: '000000000000002',
        documentos,
      });
    });

    it('the state moves to the answer’s NSU', async () => {
      const nfe = (await a.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos[1];
      expect(nfe).toMatchObject({ ultimo_nsu: '000000000000002', max_nsu: '000000000000002', ultimo_cstat: 138 });
    });

    it('GET /documentos lists them with where each went; filters by servico, destino and chave', async () => {
      const res = await a.call('GET', '/v1/fiscal/distribuicao/documentos');
      expect(res.status).toBe(200);
      expect(res.body.meta).toMatchObject({ page: 1, per_page: 20, total: 2, next_cursor: null });
      expect(res.body.data).toEqual([
        {
          servico: 'nfe',
          nsu: '000000000000002',
          schema: 'procNFe_v4.00.xsd',
          chave: null,
          destino: 'ilegivel',
          erro: 'the gzip is broken',
          sha256: null,
          xml_disponivel: false,
          consulta_id: expect.any(String),
          recebido_em: expect.any(String),
        },
        {
          servico: 'nfe',
          nsu: '000000000000001',
          schema: 'resNFe_v1.01.xsd',
          chave,
          destino: 'guardado',
          erro: null,
          sha256: documentos[0]!.sha256,
          xml_disponivel: true,
          consulta_id: res.body.data[0].consulta_id,
          recebido_em: res.body.data[0].recebido_em,
        },
      ]);
      const nsus = async (q: string) =>
        ((await a.call('GET', `/v1/fiscal/distribuicao/documentos?${q}`)).body.data as { nsu: string }[]).map((d) => d.nsu);
      expect(await nsus('destino=guardado')).toEqual(['000000000000001']);
      expect(await nsus(`chave=${chave}`)).toEqual(['000000000000001']);
      expect(await nsus('servico=cte')).toEqual([]);
      expect(await nsus('servico=nfe&destino=ilegivel')).toEqual(['000000000000002']);

      // Paged by cursor: one per page, the second page after the first, none repeated.
      const p1 = await a.call('GET', '/v1/fiscal/distribuicao/documentos?per_page=1');
      expect(p1.body.data.map((d: { nsu: string }) => d.nsu)).toEqual(['000000000000002']);
      expect(p1.body.meta.next_cursor).toEqual(expect.any(String));
      const p2 = await a.call('GET', `/v1/fiscal/distribuicao/documentos?per_page=1&cursor=${p1.body.meta.next_cursor}`);
      expect(p2.body.data.map((d: { nsu: string }) => d.nsu)).toEqual(['000000000000001']);
      expect(p2.body.meta.next_cursor).toBeNull();
    });

    it('GET /documentos/{servico}/{nsu} answers the bytes as archived; 404 for an unreadable one and for an NSU not received', async () => {
      const res = await fetch(`${app.url}/v1/fiscal/distribuicao/documentos/nfe/000000000000001`, {
        headers: { authorization: `Bearer ${a.apiKey}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(Buffer.from(await res.arrayBuffer()).equals(xml)).toBe(true);

      expectError(await a.call('GET', '/v1/fiscal/distribuicao/documentos/nfe/000000000000002'), 404, 'nao_encontrado');
      expectError(await a.call('GET', '/v1/fiscal/distribuicao/documentos/nfe/000000000000003'), 404, 'nao_encontrado');
      // The same NSU of the other service is another document.
      expectError(await a.call('GET', '/v1/fiscal/distribuicao/documentos/cte/000000000000001'), 404, 'nao_encontrado');
    });

    it('one company never sees another’s state or documents', async () => {
      const estadoB = (await b.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos[1];
      expect(estadoB.ultimo_nsu).toBe(NSU_ZERO);
      expect(estadoB.ultimo_cstat).toBe(656);
      const lista = await b.call('GET', '/v1/fiscal/distribuicao/documentos');
      expect(lista.status).toBe(200);
      expect(lista.body).toMatchObject({ data: [], meta: { total: 0 } });
      expect((await b.call('GET', `/v1/fiscal/distribuicao/documentos?chave=${chave}`)).body.data).toEqual([]);
      expectError(await b.call('GET', '/v1/fiscal/distribuicao/documentos/nfe/000000000000001'), 404, 'nao_encontrado');
      // A cursor of A's list opens nothing of A's for B.
      const p1 = await a.call('GET', '/v1/fiscal/distribuicao/documentos?per_page=1');
      const alheio = await b.call('GET', `/v1/fiscal/distribuicao/documentos?per_page=1&cursor=${p1.body.meta.next_cursor}`);
      expect(alheio.status).toBe(200);
      expect(alheio.body.data).toEqual([]);
    });
  });

  it('400 validacao for a bad body, an unknown service and hostile input; nothing changes', async () => {
    const antes = (await a.call('GET', '/v1/fiscal/distribuicao')).body.data;
    for (const body of [
      {},
      { habilitada: 'true' },
      { habilitada: 1 },
      { habilitada: null },
      { habilitada: true, servico: 'cte' },
      [{ habilitada: false }],
      { habilitada: 'false\u0000' },
    ]) {
      expectError(await a.call('PUT', '/v1/fiscal/distribuicao', body), 400, 'validacao');
    }
    expectError(await a.call('PUT', '/v1/fiscal/distribuicao'), 400, 'validacao');
    expectError(
      await a.call('PUT', '/v1/fiscal/distribuicao', '{"habilitada": fal', { 'content-type': 'application/json' }),
      400,
      'validacao',
    );
    for (const body of [
      { servico: 'mdfe' },
      { servico: 'CTE' },
      { servico: 'cte', ult_nsu: '000000000000009' },
      { servico: ['cte', 'nfe'] },
      'cte',
    ]) {
      const res = await a.call(
        'POST',
        '/v1/fiscal/distribuicao/consultas',
        body,
        typeof body === 'string' ? { 'content-type': 'application/json' } : {},
      );
      expectError(res, 400, 'validacao');
    }
    for (const q of [
      'servico=mdfe',
      'destino=caixa',
      `chave=${'1'.repeat(43)}`,
      'chave=%00',
      'per_page=101',
      'page=0',
      'cursor=nao-e-um-cursor',
    ]) {
      expectError(await a.call('GET', `/v1/fiscal/distribuicao/documentos?${q}`), 400, 'validacao');
    }
    for (const p of ['mdfe/000000000000001', 'nfe/1', 'nfe/00000000000000a', 'nfe/%2e%2e%2f%2e%2e%2fetc', `nfe/${'9'.repeat(16)}`]) {
      expectError(await a.call('GET', `/v1/fiscal/distribuicao/documentos/${p}`), 400, 'validacao');
    }
    expect((await a.call('GET', '/v1/fiscal/distribuicao')).body.data).toEqual(antes);
  });

  it('without a fiscal address the national environment cannot be asked: 422 distribuicao_sem_uf', async () => {
    const semEndereco = await app.carrier();
    expectError(await semEndereco.call('POST', '/v1/fiscal/distribuicao/consultas'), 422, 'distribuicao_sem_uf');
    // Its switch needs no address.
    expect((await semEndereco.call('PUT', '/v1/fiscal/distribuicao', { habilitada: false })).status).toBe(200);
  });

  it('the OpenAPI document names each code these routes answer, under its status', async () => {
    const doc = (await a.call('GET', '/v1/openapi.json')).body;
    const exemplos = (path: string, method: string, status: number) =>
      Object.keys(doc.paths[path][method].responses[String(status)].content['application/json'].examples);
    const consultas = '/v1/fiscal/distribuicao/consultas';
    expect(exemplos(consultas, 'post', 429)).toEqual(expect.arrayContaining(['consulta_bloqueada', 'limite_requisicoes']));
    expect(exemplos(consultas, 'post', 422)).toEqual(expect.arrayContaining(['distribuicao_desabilitada', 'distribuicao_sem_uf']));
    expect(doc.paths[consultas].post.responses['429'].headers['Retry-After']).toBeDefined();
    expect(exemplos(consultas, 'post', 503)).toEqual(expect.arrayContaining(['consulta_indisponivel', 'provedor_indisponivel']));
    expect(exemplos('/v1/fiscal/distribuicao', 'put', 400)).toEqual(['validacao']);
    expect(exemplos('/v1/fiscal/distribuicao/documentos/{servico}/{nsu}', 'get', 404)).toEqual(['nao_encontrado']);
    expect(Object.keys(doc.paths['/v1/fiscal/distribuicao/documentos/{servico}/{nsu}'].get.responses['200'].content)).toEqual([
      'application/xml',
    ]);
    expect(doc.paths['/v1/fiscal/distribuicao'].put.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/DistribuicaoAlteracao',
    });
  });

  it('403 escopo_nao_habilitado without the scope fiscal, 401 without a credential', async () => {
    const semFiscal = await app.carrier({ scopes: ['operacao'] });
    for (const [method, path, body] of [
      ['GET', '/v1/fiscal/distribuicao'],
      ['PUT', '/v1/fiscal/distribuicao', { habilitada: false }],
      ['POST', '/v1/fiscal/distribuicao/consultas'],
      ['GET', '/v1/fiscal/distribuicao/documentos'],
      ['GET', '/v1/fiscal/distribuicao/documentos/nfe/000000000000001'],
    ] as const) {
      expectError(await semFiscal.call(method, path, body), 403, 'escopo_nao_habilitado');
      const anonimo = await fetch(`${app.url}${path}`, {
        method,
        ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
      });
      expect({ path, status: anonimo.status }).toEqual({ path, status: 401 });
    }
  });
});

/**
 * The same routes over the real path: the distribution processor and its schedule run, the sandbox's simulated
 * national environment answers, and what it delivers goes where an upload would.
 */
describe('/v1/fiscal/distribuicao with the distribution processor and the simulated national environment', () => {
  let app: TestApp;
  let contratante: TestCarrier;
  let sub: TestCarrier;
  let terceira: TestCarrier;
  let chave: string;

  beforeAll(async () => {
    app = await startTestApp({
      SERVICES: 'api,projector,emission-processor,payout-processor,distribuicao-processor',
      // The schedule looks once at the start (no company yet) and not again during the test: the consultations are the test's.
      DISTRIBUICAO_INTERVALO_S: '86400',
    });
    contratante = await emissora(app, 'CONTRATANTE DISTRIBUI SA');
    sub = await emissora(app, 'SUBCONTRATADA RECEBE LTDA');
    terceira = await emissora(app, 'TERCEIRA NADA RECEBE LTDA');
    const d = await contratante.call('POST', '/v1/fiscal/cte', { ...rascunhoEmitivel('CARGA DISTRIBUIDA'), autorizados_xml: [sub.cnpj] });
    expect(d.status).toBe(201);
    await contratante.call('POST', `/v1/fiscal/cte/${d.body.data.id}/emissao`);
    const r = await pollUntil(contratante, `/v1/fiscal/cte/${d.body.data.id}/consulta`, (x) => x.body?.data?.situacao === 'autorizado');
    chave = r.body.data.access_key as string;
  }, 120_000);
  afterAll(() => app?.close());

  /** The service's state once the processor recorded the consultation's outcome. */
  const respondido = async (c: TestCarrier, servico: 'cte' | 'nfe') => {
    for (let i = 0; i < 200; i++) {
      const s = (
        (await c.call('GET', '/v1/fiscal/distribuicao')).body.data.servicos as { servico: string; ultima_consulta_em: string | null }[]
      ).find((x) => x.servico === servico)!;
      if (s.ultima_consulta_em !== null) return s as Record<string, unknown>;
      await new Promise((ok) => setTimeout(ok, 50));
    }
    throw new Error(`the ${servico} consultation got no outcome`);
  };

  it('a consultation brings the CT-e naming the company in autXML to the inbox; the listing and the raw bytes match it; then 429', async () => {
    const pedida = await sub.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'cte' });
    expect(pedida.status).toBe(202);
    expect(pedida.body.data.consultas).toEqual([{ servico: 'cte', consulta_id: expect.any(String), ultimo_nsu: NSU_ZERO }]);
    const cte = await respondido(sub, 'cte');
    expect(cte).toMatchObject({
      ultimo_cstat: 138,
      ultimo_nsu: '000000000000001',
      max_nsu: '000000000000001',
      consulta_em_andamento: null,
    });

    const lista = await sub.call('GET', '/v1/fiscal/distribuicao/documentos');
    expect(lista.body.data).toEqual([
      expect.objectContaining({ servico: 'cte', nsu: '000000000000001', chave, destino: 'caixa_cte', erro: null, xml_disponivel: true }),
    ]);
    expect(lista.body.data[0].consulta_id).toBe(pedida.body.data.consultas[0].consulta_id);
    const bytes = async (path: string) => {
      const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${sub.apiKey}` } });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      return Buffer.from(await res.arrayBuffer());
    };
    const distribuido = await bytes('/v1/fiscal/distribuicao/documentos/cte/000000000000001');
    expect(distribuido.equals(await bytes(`/v1/fiscal/cte-subcontratacao/${chave}/xml`))).toBe(true);
    expect(distribuido.toString('utf8')).toContain(`<chCTe>${chave}</chCTe>`);
    expect((await sub.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`)).body.data.origem).toBe('distribuicao');

    // The answer reached maxNSU: the hour's wait holds, and asking is refused without calling the service.
    const bloqueada = await sub.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'cte' });
    expectError(bloqueada, 429, 'consulta_bloqueada');
    expect(Number(bloqueada.headers.get('retry-after'))).toBeGreaterThan(HORA_S - 120);
    expect(bloqueada.body.error.details.tentar_apos).toBe(cte.proxima_consulta);
  });

  it('a company the CT-e does not name receives nothing: 137, no document, no inbox entry', async () => {
    expect((await terceira.call('POST', '/v1/fiscal/distribuicao/consultas', { servico: 'cte' })).status).toBe(202);
    expect(await respondido(terceira, 'cte')).toMatchObject({ ultimo_cstat: 137, ultimo_nsu: NSU_ZERO });
    expect((await terceira.call('GET', '/v1/fiscal/distribuicao/documentos')).body.meta.total).toBe(0);
    expectError(await terceira.call('GET', '/v1/fiscal/distribuicao/documentos/cte/000000000000001'), 404, 'nao_encontrado');
    expectError(await terceira.call('GET', `/v1/fiscal/cte-subcontratacao/${chave}`), 404, 'nao_encontrado');
  });
});
