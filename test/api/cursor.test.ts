import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { rascunhoEmitivel } from '../support/rascunho';
import { cpfValido } from '../support/cpf';

/**
 * Cursor paging (issue 16, point 4) on the lists that can grow large: `cursor` in the query, `meta.next_cursor` in
 * the answer, beside `page`. A walk by cursor sees every row once even when rows are inserted between its pages.
 */

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v), 'utf8').toString('base64url');

const cpf = (n: number) => cpfValido(n, 200_000_000);

describe('cursor paging on the large lists', () => {
  let app: TestApp;
  let c: TestCarrier;

  /** The lists that offer a cursor, as `c` reads them. */
  const LISTS = [
    '/v1/fiscal/cte',
    '/v1/fiscal/mdfe',
    '/v1/fiscal/nfe',
    '/v1/fiscal/motoristas',
    '/v1/fiscal/veiculos',
    '/v1/fiscal/cte-subcontratacao',
    '/v1/vale-pedagio',
    '/v1/conta-operacional/extrato',
    '/v1/convites/transportadoras',
    '/v1/fiscal/cte-subcontratacao/lote',
  ];

  /** Walks a list by cursor, `between` running after each page; returns every id seen, in order. */
  async function walk(
    path: string,
    perPage: number,
    id: (row: Record<string, unknown>) => string,
    between: (page: number) => Promise<void>,
  ) {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 50; n++) {
      const sep = path.includes('?') ? '&' : '?';
      const r = await c.call('GET', `${path}${sep}per_page=${perPage}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.data.length).toBeLessThanOrEqual(perPage);
      seen.push(...r.body.data.map(id));
      cursor = r.body.meta.next_cursor;
      if (cursor === null) return seen;
      expect(typeof cursor).toBe('string');
      await between(n);
    }
    throw new Error('the walk did not end');
  }

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ scopes: ['fiscal', 'operacao', 'cadastros'] });
  }, 60_000);
  afterAll(() => app?.close());

  it('CT-e (newest first): every row that was there is seen once; rows created meanwhile come before the cursor and are not', async () => {
    const antes: string[] = [];
    for (let i = 0; i < 7; i++) antes.push((await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel(`CURSOR ${i}`))).body.data.id);
    const novos: string[] = [];
    const seen = await walk(
      '/v1/fiscal/cte',
      3,
      (r) => r.id as string,
      async () => {
        novos.push((await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel('DURANTE'))).body.data.id);
      },
    );
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...antes].sort());
    expect(seen).toEqual([...antes].reverse());
    expect(novos.length).toBeGreaterThan(0);
  });

  it('drivers (by id): rows inserted meanwhile land after the cursor and are seen too, each once', async () => {
    const antes: string[] = [];
    for (let i = 0; i < 5; i++) antes.push(cpf(i));
    for (const x of antes) expect((await c.call('POST', '/v1/fiscal/motoristas', { cpf: x, nome: `M ${x}` })).status).toBe(201);
    const novos: string[] = [];
    const seen = await walk(
      '/v1/fiscal/motoristas',
      2,
      (r) => r.cpf as string,
      async (n) => {
        if (n > 2) return;
        const x = cpf(100 + n);
        novos.push(x);
        expect((await c.call('POST', '/v1/fiscal/motoristas', { cpf: x, nome: `N ${x}` })).status).toBe(201);
      },
    );
    expect(seen).toEqual([...antes, ...novos]);
  });

  it('statement, both orders: the walk by cursor is the list by pages', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await c.call('POST', '/v1/conta-operacional/creditos', { valor: i + 1, referencia: `cursor-${i}` })).status).toBe(201);
    }
    for (const ordem of ['asc', 'desc']) {
      const seen = await walk(
        `/v1/conta-operacional/extrato?ordem=${ordem}`,
        2,
        (r) => String(r.sequencia),
        async () => undefined,
      );
      const all = (await c.call('GET', `/v1/conta-operacional/extrato?ordem=${ordem}&per_page=100`)).body.data.map(
        (r: { sequencia: number }) => String(r.sequencia),
      );
      expect(seen).toEqual(all);
      expect(seen).toHaveLength(5);
    }
  });

  it('by page the answer carries next_cursor too, which continues where the page ended; null on the last page', async () => {
    const p1 = (await c.call('GET', '/v1/fiscal/cte?per_page=2&page=1')).body;
    const p2 = (await c.call('GET', '/v1/fiscal/cte?per_page=2&page=2')).body;
    const viaCursor = (await c.call('GET', `/v1/fiscal/cte?per_page=2&cursor=${p1.meta.next_cursor}`)).body;
    expect(viaCursor.data).toEqual(p2.data);
    expect(viaCursor.meta.total).toBe(p1.meta.total);
    const last = Math.ceil(p1.meta.total / 2);
    expect((await c.call('GET', `/v1/fiscal/cte?per_page=2&page=${last}`)).body.meta.next_cursor).toBeNull();
  });

  it('every list that offers a cursor answers meta.next_cursor (null when nothing follows)', async () => {
    for (const path of LISTS) {
      const r = await c.call('GET', `${path}?per_page=100`);
      expect({ path, status: r.status, next: r.body.meta.next_cursor }).toEqual({ path, status: 200, next: null });
    }
  });

  it('OpenAPI: each of these lists declares `cursor`', async () => {
    const doc = (await c.call('GET', '/v1/openapi.json')).body;
    for (const path of LISTS) {
      const params = (doc.paths[path]?.get?.parameters ?? []) as { in: string; name: string }[];
      expect({ path, cursor: params.some((p) => p.in === 'query' && p.name === 'cursor') }).toEqual({ path, cursor: true });
    }
  });

  it('400 validacao for a cursor this list did not give: malformed, altered, out of range, or of another list', async () => {
    const cte = (await c.call('GET', '/v1/fiscal/cte?per_page=1')).body.meta.next_cursor as string;
    const asc = (await c.call('GET', '/v1/conta-operacional/extrato?per_page=1')).body.meta.next_cursor as string;
    const bad: [string, string][] = [
      ['/v1/fiscal/cte', 'não+é/base64'],
      ['/v1/fiscal/cte', 'x'.repeat(1025)],
      ['/v1/fiscal/cte', b64('not json')],
      ['/v1/fiscal/cte', b64({ l: 'cte' })],
      ['/v1/fiscal/cte', b64({ l: 'cte', v: ['2026-11-24 12:00:00+00'] })],
      ['/v1/fiscal/cte', b64({ l: 'cte', v: ['2026-02-30 12:00:00+00', 'a'] })],
      ['/v1/fiscal/cte', b64({ l: 'cte', v: ['2026-11-24 25:00:00+00', 'a'] })],
      ['/v1/fiscal/cte', b64({ l: 'cte', v: ['ontem', 'a'] })],
      ['/v1/fiscal/cte', b64({ l: 'cte', v: ['2026-11-24 12:00:00+00', 'a\u0000b'] })],
      ['/v1/fiscal/cte', b64({ l: 'cte', v: [1, 2] })],
      ['/v1/fiscal/cte', b64(null)],
      ['/v1/fiscal/motoristas', b64({ l: 'motoristas', v: ['99999999999999999999'] })],
      ['/v1/fiscal/motoristas', b64({ l: 'motoristas', v: ['1.5'] })],
      ['/v1/fiscal/mdfe', cte],
      ['/v1/fiscal/motoristas', cte],
      ['/v1/conta-operacional/extrato?ordem=desc', asc],
    ];
    for (const path of LISTS) bad.push([path, b64({ l: 'outra', v: ['1'] })]);
    for (const [path, cursor] of bad) {
      const sep = path.includes('?') ? '&' : '?';
      const r = await c.call('GET', `${path}${sep}cursor=${encodeURIComponent(cursor)}`);
      const body = expectError(r, 400, 'validacao');
      expect({ path, cursor, fields: body.error.details.fields.map((f: { field: string }) => f.field) }).toEqual({
        path,
        cursor,
        fields: ['querystring.cursor'],
      });
    }
  });
});
