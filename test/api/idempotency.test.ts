import { type PoolClient } from 'pg';
import { startTestApp, expectError, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { rascunhoEmitivel } from '../support/rascunho';
import { cpfValido } from '../support/cpf';

/**
 * `Idempotency-Key` on every POST (IETF draft-ietf-httpapi-idempotency-key-header), over real HTTP: a retry replays
 * the first answer, another request under the key is 422, a retry while the first runs is 409, keys are per company
 * and expire, a 5xx is not kept. Several areas: registrations (drivers), CT-e drafts (whose ids also derive from the
 * key), the inbox (multipart), the operational account.
 */

const cpf = (n: number) => cpfValido(n);

const motorista = (n: number) => ({ cpf: cpf(n), nome: `MOTORISTA ${n}` });
const key = (name: string) => ({ 'idempotency-key': `${name}-${Date.now().toString(36)}` });
const replayed = (r: ApiResponse) => r.headers.get('idempotent-replayed');

describe('Idempotency-Key on every POST', () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;
  /** The service clock runs this far ahead of real time: the expiry tests move it. */
  let offsetMs = 0;

  const row = async (companyId: string, k: string) =>
    (
      await app.db.pool.query<{ state: string; status: number | null }>(
        'SELECT state, status FROM idempotency_keys WHERE company_id = $1 AND key = $2',
        [companyId, k],
      )
    ).rows[0];
  const waitForRow = async (companyId: string, k: string) => {
    for (let i = 0; i < 200; i++) {
      if (await row(companyId, k)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no claim for ${k}`);
  };
  /** Holds every append to the event store until `release`: the request that reaches its append waits there, in flight. */
  const holdAppends = async () => {
    const client: PoolClient = await app.db.pool.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE es_events IN EXCLUSIVE MODE');
    return async () => {
      await client.query('COMMIT');
      client.release();
    };
  };

  beforeAll(async () => {
    app = await startTestApp(
      // A duplicate waits 300 ms for the first request before 409; the first request's claim lasts 60 s.
      { IDEMPOTENCY_IN_FLIGHT_WAIT_MS: '300', IDEMPOTENCY_LEASE_S: '60', IDEMPOTENCY_TTL_S: '86400' },
      { clock: () => new Date(Date.now() + offsetMs) },
    );
    c = await app.carrier({ name: 'IDEMPOTENTE TRANSPORTES LTDA', scopes: ['fiscal', 'operacao'] });
    other = await app.carrier({ name: 'OUTRA TRANSPORTES LTDA', scopes: ['fiscal', 'operacao'] });
  }, 60_000);
  afterAll(() => app?.close());

  it('a retry with the same key and body replays the first answer: status, body, content type; nothing is made twice', async () => {
    const h = key('motorista');
    const first = await c.call('POST', '/v1/fiscal/motoristas', motorista(1), h);
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    // Member order and spacing are not the request: the parsed body is.
    const retry = await c.call('POST', '/v1/fiscal/motoristas', JSON.stringify({ nome: 'MOTORISTA 1', cpf: cpf(1) }, null, 2), {
      ...h,
      'content-type': 'application/json',
    });
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(replayed(retry)).toBe('true');
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    const list = await c.call('GET', `/v1/fiscal/motoristas?per_page=100`);
    expect(list.body.data.filter((m: { cpf: string }) => m.cpf === cpf(1))).toHaveLength(1);
  });

  it('CT-e drafts: a replay answers the first draft, and the draft id still derives from the key', async () => {
    const h = key('rascunho');
    const body = rascunhoEmitivel();
    const first = await c.call('POST', '/v1/fiscal/cte', body, h);
    expect(first.status).toBe(201);
    const retry = await c.call('POST', '/v1/fiscal/cte', body, h);
    expect([retry.status, retry.text, replayed(retry)]).toEqual([201, first.text, 'true']);
    expect(await app.running.platform.store.readStream(`cte-${first.body.data.id}`)).toHaveLength(1);
  });

  it('the same key with another body, route or method → 422 idempotency_key_reutilizada, and nothing is done', async () => {
    const h = key('reuso');
    expect((await c.call('POST', '/v1/fiscal/motoristas', motorista(2), h)).status).toBe(201);
    const body = expectError(await c.call('POST', '/v1/fiscal/motoristas', motorista(3), h), 422, 'idempotency_key_reutilizada');
    expect(body.error.message).toMatch(/another body/);
    const route = expectError(await c.call('POST', '/v1/fiscal/veiculos', { placa: 'IDE1A23' }, h), 422, 'idempotency_key_reutilizada');
    expect(route.error.message).toMatch(/POST \/v1\/fiscal\/motoristas/);
    const list = await c.call('GET', `/v1/fiscal/motoristas?per_page=100`);
    expect(list.body.data.map((m: { cpf: string }) => m.cpf)).not.toContain(cpf(3));
    expect((await c.call('GET', '/v1/fiscal/veiculos?per_page=100')).body.data.map((v: { placa: string }) => v.placa)).not.toContain(
      'IDE1A23',
    );
  });

  it('a retry while the first request runs → 409 idempotency_key_em_uso with Retry-After; after it ends, the replay', async () => {
    const h = key('em-voo');
    const release = await holdAppends();
    let first: Promise<ApiResponse>;
    try {
      first = c.call('POST', '/v1/fiscal/motoristas', motorista(4), h);
      await waitForRow(c.companyId, h['idempotency-key']);
      expect((await row(c.companyId, h['idempotency-key']))?.state).toBe('in_flight');
      const busy = await c.call('POST', '/v1/fiscal/motoristas', motorista(4), h);
      expectError(busy, 409, 'idempotency_key_em_uso');
      expect(busy.headers.get('retry-after')).toBe('1');
      // Another body under a running key is known to be another request at once.
      expectError(await c.call('POST', '/v1/fiscal/motoristas', motorista(5), h), 422, 'idempotency_key_reutilizada');
    } finally {
      await release();
    }
    const done = await first!;
    expect(done.status).toBe(201);
    const retry = await c.call('POST', '/v1/fiscal/motoristas', motorista(4), h);
    expect([retry.status, retry.text, replayed(retry)]).toEqual([201, done.text, 'true']);
  });

  it("keys are per company: another company's identical key is its own", async () => {
    const h = key('tenant');
    const mine = await c.call('POST', '/v1/fiscal/motoristas', motorista(6), h);
    const theirs = await other.call('POST', '/v1/fiscal/motoristas', motorista(7), h);
    expect([mine.status, theirs.status, replayed(theirs)]).toEqual([201, 201, null]);
    expect(theirs.body.data.cpf).toBe(cpf(7));
    const again = await other.call('POST', '/v1/fiscal/motoristas', motorista(7), h);
    expect([again.text, replayed(again)]).toEqual([theirs.text, 'true']);
  });

  it('a 4xx the handler answered is kept and replayed as it was, with this request id in the envelope', async () => {
    const h = key('recusa');
    expect((await c.call('POST', '/v1/fiscal/motoristas', motorista(8))).status).toBe(201);
    const refused = expectError(await c.call('POST', '/v1/fiscal/motoristas', motorista(8), h), 422, 'motorista_duplicado');
    const list = await c.call('GET', `/v1/fiscal/motoristas?per_page=100`);
    const id = list.body.data.find((m: { cpf: string }) => m.cpf === cpf(8)).id;
    expect((await c.call('DELETE', `/v1/fiscal/motoristas/${id}`)).status).toBe(204);
    // The same request again is the same answer, though the driver is gone now; a new key asks anew.
    const retry = await c.call('POST', '/v1/fiscal/motoristas', motorista(8), h);
    const body = expectError(retry, 422, 'motorista_duplicado');
    expect(replayed(retry)).toBe('true');
    expect(body.error.message).toBe(refused.error.message);
    expect(body.error.request_id).not.toBe(refused.error.request_id);
    expect((await c.call('POST', '/v1/fiscal/motoristas', motorista(8), key('recusa-nova'))).status).toBe(201);
  });

  it('400 validacao for a malformed key (too short, too long, outside the token characters, sent twice), on any POST', async () => {
    for (const k of ['curta', 'x'.repeat(129), 'tem espaço dentro', 'aspas"no-meio', '"aspas-sem-fim', '""', '"curta"']) {
      const r = expectError(await c.call('POST', '/v1/fiscal/motoristas', motorista(9), { 'idempotency-key': k }), 400, 'validacao');
      expect(r.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['headers.idempotency-key']);
    }
    const twice = new Headers({ authorization: `Bearer ${c.apiKey}`, 'content-type': 'application/json' });
    twice.append('idempotency-key', 'primeira-chave');
    twice.append('idempotency-key', 'segunda-chave');
    const res = await fetch(`${app.url}/v1/fiscal/veiculos`, {
      method: 'POST',
      headers: twice,
      body: JSON.stringify({ placa: 'DUP1A23' }),
    });
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([400, 'validacao']);
    expectError(
      await c.call('POST', '/v1/conta-operacional/creditos', { valor: 10, referencia: 'dep-1' }, { 'idempotency-key': 'a' }),
      400,
      'validacao',
    );
  });

  it('the draft\'s structured-field form ("…") is the same key as the bare token', async () => {
    const k = `aspas-${Date.now().toString(36)}`;
    const first = await c.call('POST', '/v1/fiscal/motoristas', motorista(15), { 'idempotency-key': `"${k}"` });
    expect(first.status).toBe(201);
    const bare = await c.call('POST', '/v1/fiscal/motoristas', motorista(15), { 'idempotency-key': k });
    expect([bare.status, bare.text, replayed(bare)]).toEqual([201, first.text, 'true']);
  });

  it('a request refused before its handler (validation) keeps no key: corrected, it runs under the same key', async () => {
    const h = key('invalido');
    expectError(await c.call('POST', '/v1/fiscal/motoristas', { cpf: '123' }, h), 400, 'validacao');
    expect(await row(c.companyId, h['idempotency-key'])).toBeUndefined();
    expect((await c.call('POST', '/v1/fiscal/motoristas', motorista(10), h)).status).toBe(201);
  });

  it('multipart uploads are fingerprinted by their parts, not their boundary: a new form with the same file replays', async () => {
    const { xml } = buildCteXml({ emitenteCnpj: other.cnpj, emitenteNome: 'OUTRA TRANSPORTES LTDA', nfeChaves: [nfeKey()] });
    const form = (content: string) => {
      const f = new FormData();
      f.append('arquivo', new Blob([Buffer.from(content)], { type: 'application/xml' }), 'cte.xml');
      return f;
    };
    const h = key('upload');
    const first = await c.call('POST', '/v1/fiscal/cte-subcontratacao', form(xml), h);
    expect(first.status).toBe(201);
    const retry = await c.call('POST', '/v1/fiscal/cte-subcontratacao', form(xml), h);
    // Without the key a second receipt answers 200; the replay is the first answer, 201.
    expect([retry.status, retry.text, replayed(retry)]).toEqual([201, first.text, 'true']);
    const outro = buildCteXml({ emitenteCnpj: other.cnpj, emitenteNome: 'OUTRA TRANSPORTES LTDA', nfeChaves: [nfeKey()] }).xml;
    expectError(await c.call('POST', '/v1/fiscal/cte-subcontratacao', form(outro), h), 422, 'idempotency_key_reutilizada');
    // The same file sent as JSON is another request body too.
    expectError(await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml }, h), 422, 'idempotency_key_reutilizada');
  });

  it('operational account: a deposit replayed under its key answers 201 again, credited once', async () => {
    const h = key('deposito');
    const first = await c.call('POST', '/v1/conta-operacional/creditos', { valor: 50, referencia: 'dep-idem-1' }, h);
    expect(first.status).toBe(201);
    const retry = await c.call('POST', '/v1/conta-operacional/creditos', { valor: 50, referencia: 'dep-idem-1' }, h);
    expect([retry.status, retry.text, replayed(retry)]).toEqual([201, first.text, 'true']);
    expect((await c.call('GET', '/v1/conta-operacional')).body.data.total_creditos).toBe(50);
  });

  it('OpenAPI: every POST that needs a credential declares the header and its 409 and 422', async () => {
    const doc = (await c.call('GET', '/v1/openapi.json')).body;
    const posts = Object.entries(doc.paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>)
      .filter(([path, ops]) => ops.post && path.startsWith('/v1/'))
      .map(([path, ops]) => ({
        path,
        post: ops.post as { parameters?: { in: string; name: string }[]; responses: Record<string, unknown> },
      }));
    expect(posts.length).toBeGreaterThan(30);
    for (const { path, post } of posts) {
      const header = (post.parameters ?? []).some((p) => p.in === 'header' && p.name === 'idempotency-key');
      expect({ path, header, r409: '409' in post.responses, r422: '422' in post.responses }).toEqual({
        path,
        header: true,
        r409: true,
        r422: true,
      });
    }
  });

  describe('lease and expiry (the service clock moved forward)', () => {
    afterAll(() => {
      offsetMs = 0;
    });

    it('a claim whose process stopped (its lease lapsed) is taken over by the retry, which stores the answer', async () => {
      const h = key('lease');
      const body = rascunhoEmitivel();
      const release = await holdAppends();
      let first: Promise<ApiResponse>;
      let second: Promise<ApiResponse>;
      try {
        first = c.call('POST', '/v1/fiscal/cte', body, h);
        await waitForRow(c.companyId, h['idempotency-key']);
        offsetMs += 61_000;
        second = c.call('POST', '/v1/fiscal/cte', body, h);
        // The retry took the key over (no 409): it is held at the append as the first is.
        await new Promise((r) => setTimeout(r, 500));
      } finally {
        await release();
      }
      const [a, b] = await Promise.all([first!, second!]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.body.data.id).toBe(a.body.data.id);
      const third = await c.call('POST', '/v1/fiscal/cte', body, h);
      expect([third.status, third.text, replayed(third)]).toEqual([201, b.text, 'true']);
    });

    it('after IDEMPOTENCY_TTL_S the key is forgotten (another body runs under it) and expired keys are deleted', async () => {
      const h = key('expira');
      expect((await c.call('POST', '/v1/fiscal/motoristas', motorista(11), h)).status).toBe(201);
      const old = key('velha');
      expect((await other.call('POST', '/v1/fiscal/motoristas', motorista(12), old)).status).toBe(201);
      offsetMs += 24 * 3600_000 - 1000;
      expectError(await c.call('POST', '/v1/fiscal/motoristas', motorista(13), h), 422, 'idempotency_key_reutilizada');
      offsetMs += 2000;
      const fresh = await c.call('POST', '/v1/fiscal/motoristas', motorista(13), h);
      expect([fresh.status, fresh.body.data.cpf, replayed(fresh)]).toEqual([201, cpf(13), null]);
      // The other company's key expired too and nobody used it again: the next sweep (at most one a minute, after a
      // claim) removes it.
      offsetMs += 61_000;
      expect((await c.call('POST', '/v1/fiscal/motoristas', motorista(14), key('varre'))).status).toBe(201);
      for (let i = 0; i < 100 && (await row(other.companyId, old['idempotency-key'])); i++) await new Promise((r) => setTimeout(r, 20));
      expect(await row(other.companyId, old['idempotency-key'])).toBeUndefined();
    });
  });
});

describe('Idempotency-Key: a 5xx is not kept', () => {
  let app: TestApp;
  let c: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp({ APP_ENVIRONMENT: 'producao' });
    c = await app.carrier({ scopes: ['operacao'], fiscalProduction: true });
  }, 60_000);
  afterAll(() => app?.close());

  it('503 provedor_indisponivel: the key is released, and a retry runs again (no replay)', async () => {
    const h = { 'idempotency-key': 'deposito-producao-1' };
    const first = await c.call('POST', '/v1/conta-operacional/creditos', { valor: 10, referencia: 'dep-prod-1' }, h);
    expectError(first, 503, 'provedor_indisponivel');
    const rows = await app.db.pool.query('SELECT 1 FROM idempotency_keys WHERE company_id = $1', [c.companyId]);
    expect(rows.rowCount).toBe(0);
    const retry = await c.call('POST', '/v1/conta-operacional/creditos', { valor: 10, referencia: 'dep-prod-1' }, h);
    expectError(retry, 503, 'provedor_indisponivel');
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Idempotency-Key: a request the rate limit refuses holds no key', () => {
  let app: TestApp;
  let c: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '2' });
    c = await app.carrier();
  }, 60_000);
  afterAll(() => app?.close());

  it('429 limite_requisicoes from the per-carrier limit: nothing stored under the key, nothing replayed', async () => {
    for (let i = 0; i < 2; i++) await c.call('GET', '/v1/fiscal/motoristas');
    const h = { 'idempotency-key': 'limitada-0001' };
    const limited = await c.call('POST', '/v1/fiscal/motoristas', motorista(1), h);
    expectError(limited, 429, 'limite_requisicoes');
    expect(limited.headers.get('idempotent-replayed')).toBeNull();
    const rows = await app.db.pool.query('SELECT 1 FROM idempotency_keys WHERE company_id = $1', [c.companyId]);
    expect(rows.rowCount).toBe(0);
  });
});
