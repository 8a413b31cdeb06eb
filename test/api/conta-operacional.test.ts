import { efeitoNoSaldo, type ContaOperacionalEvent } from '@frete/domain';
import { expectError, type ApiResponse, startTestApp, type TestApp, type TestCarrier } from '../support/app';

const PATH = '/v1/conta-operacional';
const T0 = new Date('2026-11-23T13:00:00.000Z');
const cents = (v: number) => Math.round(v * 100);
const ROTA = {
  origem: { municipio: 'Campinas', uf: 'SP' },
  destino: { municipio: 'Curitiba', uf: 'PR' },
  categoria: '04',
  placa: 'ABC1234',
  tipo: 'TAG',
};

type Movimento = {
  sequencia: number;
  tipo: string;
  valor: number;
  valor_pedagio: number | null;
  taxa: number | null;
  saldo_apos: number;
  referencia: string | null;
  vale_pedagio_id: string | null;
  motivo: string | null;
  descricao: string;
  registrado_em: string;
};

describe('/v1/conta-operacional: the operational account (ledger)', () => {
  let app: TestApp;
  let c: TestCarrier;
  let now = T0;

  const credit = (who: TestCarrier, valor: unknown, referencia: unknown) => who.call('POST', `${PATH}/creditos`, { valor, referencia });
  const extrato = async (who: TestCarrier = c, query = 'per_page=100'): Promise<Movimento[]> =>
    (await who.call('GET', `${PATH}/extrato?${query}`)).body.data;
  const conta = async (who: TestCarrier = c) => (await who.call('GET', PATH)).body.data;
  const ledger = async (who: TestCarrier = c) => app.running.platform.store.readStream(`conta-operacional-${who.companyId}`);

  beforeAll(async () => {
    app = await startTestApp({}, { clock: () => now });
    c = await app.carrier({ scopes: ['operacao'] });
  }, 120_000);
  afterAll(() => app?.close());

  it('an account with no movement: balance 0.00, empty statement', async () => {
    const res = await c.call('GET', PATH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      environment: 'homologacao',
      data: {
        saldo: 0,
        moeda: 'BRL',
        total_creditos: 0,
        total_debitos: 0,
        total_estornos: 0,
        quantidade_movimentos: 0,
        atualizado_em: null,
      },
    });
    const list = await c.call('GET', `${PATH}/extrato`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0, next_cursor: null }, environment: 'homologacao' });
  });

  it('POST /creditos: 201 with the movement and the balance (simulated deposit)', async () => {
    const res = await credit(c, 1500.5, 'DEP-0001');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      environment: 'homologacao',
      data: {
        saldo: 1500.5,
        movimento: {
          sequencia: 1,
          tipo: 'credito',
          valor: 1500.5,
          valor_pedagio: null,
          taxa: null,
          saldo_apos: 1500.5,
          referencia: 'DEP-0001',
          vale_pedagio_id: null,
          motivo: null,
          descricao: expect.stringContaining('DEP-0001'),
          registrado_em: T0.toISOString(),
        },
      },
    });
  });

  it('idempotent by referencia: the same again is 200 and credits once; another valor is 422 referencia_em_uso', async () => {
    const again = await credit(c, 1500.5, 'DEP-0001');
    expect(again.status).toBe(200);
    expect(again.body.data.movimento.sequencia).toBe(1);
    expect(again.body.data.saldo).toBe(1500.5);
    expectError(await credit(c, 1500.51, 'DEP-0001'), 422, 'referencia_em_uso');
    expect((await ledger()).map((e) => e.type)).toEqual(['conta_operacional.credito_registrado']);
  });

  it('400 validacao: valor 0, below 0.01 or with 3 places, above 1,000,000.00, missing or odd referencia', async () => {
    const fields = (res: ApiResponse) => expectError(res, 400, 'validacao').error.details.fields.map((f: { field: string }) => f.field);
    expect(fields(await credit(c, 0, 'X'))).toEqual(['valor']);
    expect(fields(await credit(c, 0.001, 'X'))).toEqual(['valor']);
    expect(fields(await credit(c, 10.005, 'X'))).toEqual(['valor']);
    expect(fields(await credit(c, 1_000_000.01, 'X'))).toEqual(['valor']);
    expect(fields(await c.call('POST', `${PATH}/creditos`, { valor: 10 }))).toEqual(['referencia']);
    expect(fields(await credit(c, 10, 'com espaço'))).toEqual(['referencia']);
    expect(fields(await credit(c, 10, ''))).toEqual(['referencia']);
    expect(fields(await c.call('POST', `${PATH}/creditos`, { valor: 10, referencia: 'A', extra: 1 }))).toEqual(['extra']);
  });

  it('concurrent deposits: every one credited, numbered 1, 2, 3… with no gap; the same referencia at once credits once', async () => {
    const d = await app.carrier({ scopes: ['operacao'] });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => credit(d, 10 + i, `PAR-${i}`)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const twins = await Promise.all([credit(d, 7, 'GEMEO'), credit(d, 7, 'GEMEO')]);
    expect(twins.map((r) => r.status).sort()).toEqual([200, 201]);
    const movimentos = await extrato(d);
    expect(movimentos.map((m) => m.sequencia)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await conta(d)).saldo).toBe(10 + 11 + 12 + 13 + 14 + 15 + 7);
  });

  it('the statement: credits, debits (toll + fee) and refunds in ledger order; balance = Σ statement = Σ ledger events', async () => {
    now = new Date(T0.getTime() + 60_000);
    const compra = await c.call('POST', '/v1/vale-pedagio', ROTA);
    expect(compra.status).toBe(201);
    const v = compra.body.data;
    now = new Date(T0.getTime() + 120_000);
    const cancel = await c.call('POST', `/v1/vale-pedagio/${v.id}/cancelar`);
    expect(cancel.status).toBe(200);
    expect((await credit(c, 20, 'DEP-0002')).status).toBe(201);

    const movimentos = await extrato();
    expect(movimentos.map((m) => [m.sequencia, m.tipo, m.valor])).toEqual([
      [1, 'credito', 1500.5],
      [2, 'debito', -v.valor_total],
      [3, 'estorno', v.valor_total],
      [4, 'credito', 20],
    ]);
    expect(movimentos[1]).toMatchObject({
      valor_pedagio: v.valor_pedagio,
      taxa: v.taxa,
      vale_pedagio_id: v.id,
      motivo: null,
      registrado_em: new Date(T0.getTime() + 60_000).toISOString(),
    });
    expect(movimentos[2]).toMatchObject({
      valor_pedagio: v.valor_pedagio,
      taxa: v.taxa,
      vale_pedagio_id: v.id,
      motivo: 'cancelamento',
      saldo_apos: 1500.5,
    });
    let running = 0;
    for (const m of movimentos) {
      running += cents(m.valor);
      expect(cents(m.saldo_apos)).toBe(running);
    }
    const resumo = await conta();
    expect(resumo).toEqual({
      saldo: 1520.5,
      moeda: 'BRL',
      total_creditos: 1520.5,
      total_debitos: v.valor_total,
      total_estornos: v.valor_total,
      quantidade_movimentos: 4,
      atualizado_em: new Date(T0.getTime() + 120_000).toISOString(),
    });
    // An auditor rebuilds the balance from the events alone.
    const events = (await ledger()).map((e) => ({ type: e.type, data: e.data }) as ContaOperacionalEvent);
    expect(events.reduce((s, e) => s + efeitoNoSaldo(e), 0)).toBe(cents(resumo.saldo));
    // The analysts' read model says the same.
    const { rows } = await app.db.pool.query(
      'SELECT sum(valor_centavos)::bigint AS s, count(*)::int AS n FROM rm.conta_operacional_movimentos WHERE company_id = $1',
      [c.companyId],
    );
    expect({ s: Number(rows[0].s), n: rows[0].n }).toEqual({ s: 152_050, n: 4 });
    const vale = await app.db.pool.query(
      'SELECT situacao, valor_total_centavos, estorno_centavos FROM rm.vales_pedagio WHERE vale_pedagio_id = $1',
      [v.id],
    );
    expect(vale.rows[0]).toEqual({
      situacao: 'cancelado',
      valor_total_centavos: String(cents(v.valor_total)),
      estorno_centavos: String(cents(v.valor_total)),
    });
  });

  it('statement paging (ruling 9), order and filters', async () => {
    const p2 = await c.call('GET', `${PATH}/extrato?page=2&per_page=3`);
    expect(p2.body.meta).toEqual({ page: 2, per_page: 3, total: 4, next_cursor: null });
    expect(p2.body.data.map((m: Movimento) => m.sequencia)).toEqual([4]);
    expect((await extrato(c, 'ordem=desc')).map((m) => m.sequencia)).toEqual([4, 3, 2, 1]);
    expect((await extrato(c, 'tipo=credito')).map((m) => m.sequencia)).toEqual([1, 4]);
    expect((await extrato(c, 'from=2026-11-23&to=2026-11-23')).length).toBe(4);
    expect((await extrato(c, 'from=2026-11-24')).length).toBe(0);
    expectError(await c.call('GET', `${PATH}/extrato?per_page=101`), 400, 'validacao');
    expectError(await c.call('GET', `${PATH}/extrato?page=0`), 400, 'validacao');
    expectError(await c.call('GET', `${PATH}/extrato?tipo=saque`), 400, 'validacao');
    expectError(await c.call('GET', `${PATH}/extrato?from=2026-11-24&to=2026-11-23`), 400, 'validacao');
  });

  it('tenant isolation: each company has its own account', async () => {
    const other = await app.carrier({ scopes: ['operacao'] });
    expect((await conta(other)).saldo).toBe(0);
    expect(await extrato(other)).toEqual([]);
    expect((await credit(other, 5, 'DEP-0001')).status).toBe(201); // the same referencia in another company
    expect((await conta(c)).saldo).toBe(1520.5);
    expect((await conta(other)).saldo).toBe(5);
  });

  it('403 escopo_nao_habilitado without `operacao`', async () => {
    const sem = await app.carrier({ scopes: ['fiscal', 'cadastros', 'consultas'] });
    expectError(await sem.call('GET', PATH), 403, 'escopo_nao_habilitado');
    expectError(await sem.call('GET', `${PATH}/extrato`), 403, 'escopo_nao_habilitado');
    expectError(await credit(sem, 10, 'X'), 403, 'escopo_nao_habilitado');
  });
});
