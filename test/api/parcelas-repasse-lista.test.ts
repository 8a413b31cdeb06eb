import { type ParcelaRepasse } from '@frete/contracts';
import { expectError, startTestApp, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { contraCteAutorizado, type ContraCteSemeado } from '../support/repasse';

const PATH = '/v1/carriers/parcelas-repasse';
const CPF = '39053344705';
const R602020: ParcelaRepasse[] = [
  { posicao: 1, percentual: 60, dias: 0 },
  { posicao: 2, percentual: 20, dias: 10 },
  { posicao: 3, percentual: 20, dias: 30 },
];

type Listada = { counter_cte_id: string; posicao: number; situacao: string; vencimento: string | null; valor: number; chave: string };

describe('GET /v1/carriers/parcelas-repasse: the installments by due date, paged by cursor', () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;
  /** Three single counter-CT-e split 60/20/20 (automatic mode): every act of the driver app releases one more. */
  let a: ContraCteSemeado;
  let b: ContraCteSemeado;
  let d: ContraCteSemeado;

  const listar = (query: string, who: TestCarrier = c) => who.call('GET', `${PATH}${query ? `?${query}` : ''}`);
  const chaves = (res: ApiResponse) => (res.body.data as Listada[]).map((p) => `${p.counter_cte_id}:${p.posicao}`);

  async function registrado(valor_centavos: number): Promise<ContraCteSemeado> {
    const doc = await contraCteAutorizado(app, c, { cpf: CPF, valor_centavos, parcelas: R602020 });
    for (let i = 0; i < 200; i++) {
      if ((await c.call('GET', `${PATH}/${doc.cte_id}`)).status === 200) return doc;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('payout not registered');
  }
  const ato = async (doc: ContraCteSemeado, path: string) =>
    expect((await c.call('POST', `${PATH}/${doc.cte_id}/${path}`)).status).toBe(200);

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ scopes: ['fiscal', 'operacao'] });
    other = await app.carrier({ scopes: ['fiscal', 'operacao'] });
    expect(
      (await c.call('POST', '/v1/fiscal/motoristas', { cpf: CPF, nome: 'MOTORISTA LISTA', repasse: { modo: 'automatico' } })).status,
    ).toBe(201);
    a = await registrado(10_000);
    b = await registrado(20_000);
    d = await registrado(30_000);
    for (const p of ['bipagem', 'conclusao', 'prestacao-contas']) await ato(a, p);
    await ato(b, 'bipagem');
    for (const p of ['bipagem', 'conclusao']) await ato(d, p);
  });
  afterAll(() => app?.close());

  it('lists every installment, earliest due date first, those without one last, walking the cursor', async () => {
    const whole = await listar('per_page=100');
    expect(whole.status).toBe(200);
    expect(whole.body.meta).toMatchObject({ total: 9, next_cursor: null });
    const rows = whole.body.data as Listada[];
    const dated = rows.filter((p) => p.vencimento !== null);
    expect(dated.map((p) => p.vencimento)).toEqual([...dated.map((p) => p.vencimento)].sort());
    expect(rows.slice(dated.length).every((p) => p.vencimento === null && p.situacao === 'pendente')).toBe(true);
    expect(dated).toHaveLength(6);
    // a's third installment is due 30 days after its release: the last dated one.
    expect(dated[5]).toMatchObject({ counter_cte_id: a.cte_id, posicao: 3, situacao: 'liberada', chave: a.chave, valor: 20 });

    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ApiResponse = await listar(`per_page=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.meta.total).toBe(9);
      walked.push(...chaves(page));
      cursor = page.body.meta.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(walked).toEqual(chaves(whole));
  });

  it('filters by situation and by due date', async () => {
    const pendentes = await listar('situacao=pendente');
    expect(pendentes.status).toBe(200);
    expect(chaves(pendentes).sort()).toEqual([`${b.cte_id}:2`, `${b.cte_id}:3`, `${d.cte_id}:3`].sort());

    const todas = (await listar('per_page=100')).body.data as Listada[];
    const primeiro = todas[0]!.vencimento!;
    const ate = await listar(`vencimento_ate=${primeiro}&situacao=liberada`);
    expect(ate.status).toBe(200);
    // Released at the scan with dias 0: the first installment of each document is due on the day of the scan.
    expect(chaves(ate).sort()).toEqual([`${a.cte_id}:1`, `${b.cte_id}:1`, `${d.cte_id}:1`].sort());
    expect((await listar('vencimento_ate=2000-01-01')).body.meta.total).toBe(0);
  });

  it("answers only the company's own installments", async () => {
    const res = await listar('', other);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], meta: { total: 0, next_cursor: null } });
    // Another company's cursor walks that company's list only.
    const cursor = (await listar('per_page=1')).body.meta.next_cursor as string;
    expect((await listar(`cursor=${cursor}`, other)).body.data).toEqual([]);
  });

  it('400 validacao for an unknown situation, a malformed day, a bad page size or a cursor this list did not give', async () => {
    for (const [query, field] of [
      ['situacao=vencida', 'situacao'],
      ['vencimento_ate=2026-13-01', 'vencimento_ate'],
      ['per_page=0', 'per_page'],
      ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ] as const) {
      const body = expectError(await listar(query), 400, 'validacao');
      expect(JSON.stringify(body.error.details?.fields ?? [])).toContain(field);
    }
    // A cursor as another list writes it (the toll passes' sort key) is not this list's.
    const outra = Buffer.from(JSON.stringify({ l: 'vale-pedagio', v: ['2026-11-29 10:00:00+00', 'x'] })).toString('base64url');
    expectError(await listar(`cursor=${outra}`), 400, 'validacao');
  });

  it('403 escopo_nao_habilitado without the scope operacao', async () => {
    const fiscal = await app.carrier({ scopes: ['fiscal'] });
    expectError(await listar('', fiscal), 403, 'escopo_nao_habilitado');
  });
});
