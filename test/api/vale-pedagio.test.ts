import { pdfPagesText } from '@frete/documents';
import { expectError, type ApiResponse, startTestApp, type TestApp, type TestCarrier } from '../support/app';

const PATH = '/v1/vale-pedagio';
const T0 = new Date('2026-11-23T13:00:00.000Z');
const MIN = 60_000;
const H = 60 * MIN;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const CAMPINAS = { municipio: 'Campinas', uf: 'SP' };
const RIO = { municipio: 'rio de janeiro', uf: 'RJ' };
const CURITIBA = { municipio: 'Curitiba', uf: 'PR' };
const rota = (extra: Record<string, unknown> = {}) => ({ origem: CAMPINAS, destino: RIO, categoria: '07', ...extra });
const compra = (extra: Record<string, unknown> = {}) => rota({ placa: 'ABC-1D23', tipo: 'TAG', ...extra });
const cents = (v: number) => Math.round(v * 100);

describe('/v1/vale-pedagio: the mandatory toll pass (sandbox, simulated FVPO)', () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;
  let now = T0;
  let refs = 0;

  const credit = async (who: TestCarrier, valor: number) => {
    const res = await who.call('POST', '/v1/conta-operacional/creditos', { valor, referencia: `DEP-${++refs}` });
    expect(res.status).toBe(201);
    return res;
  };
  const saldo = async (who: TestCarrier = c) => (await who.call('GET', '/v1/conta-operacional')).body.data.saldo as number;
  const extrato = async (who: TestCarrier = c) =>
    (await who.call('GET', '/v1/conta-operacional/extrato?per_page=100')).body.data as {
      tipo: string;
      valor: number;
      vale_pedagio_id: string | null;
      saldo_apos: number;
      motivo: string | null;
    }[];
  const buy = async (extra: Record<string, unknown> = {}, who: TestCarrier = c): Promise<ApiResponse> =>
    who.call('POST', PATH, compra(extra));
  const bought = async (extra: Record<string, unknown> = {}) => {
    const res = await buy(extra);
    expect(res.status).toBe(201);
    return res.body.data as {
      id: string;
      numero: string;
      valor_total: number;
      valor_pedagio: number;
      taxa: number;
      pracas: { codigo: string }[];
    };
  };
  const ledger = async (who: TestCarrier = c) => app.running.platform.store.readStream(`conta-operacional-${who.companyId}`);

  beforeAll(async () => {
    app = await startTestApp({}, { clock: () => now });
    c = await app.carrier({ scopes: ['operacao'] });
    other = await app.carrier({ scopes: ['operacao'] });
  }, 120_000);
  afterAll(() => app?.close());
  beforeEach(() => {
    now = T0;
  });

  describe('routing and calculation', () => {
    it('POST /roteirizacao: plazas in order with name, highway, km, concessionaire and tariff; deterministic', async () => {
      const res = await c.call('POST', `${PATH}/roteirizacao`, rota({ placa: 'ABC1D23' }));
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(res.body.environment).toBe('homologacao');
      expect(d.origem).toEqual({ codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' });
      expect(d.destino).toEqual({ codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' });
      expect(d).toMatchObject({ categoria: '07', eixos: 5, fornecedor: { simulado: true, cnpj: expect.stringMatching(/^\d{14}$/) } });
      expect(d.distancia_km).toBeGreaterThan(300);
      expect(d.pracas.length).toBeGreaterThanOrEqual(2);
      expect(d.quantidade_pracas).toBe(d.pracas.length);
      d.pracas.forEach((p: Record<string, unknown>, i: number) => {
        expect(p).toEqual({
          ordem: i + 1,
          codigo: expect.any(String),
          nome: expect.any(String),
          rodovia: expect.stringMatching(/^(BR|[A-Z]{2})-\d{3}$/),
          km: expect.any(Number),
          uf: expect.stringMatching(/^(SP|RJ)$/),
          concessionaria: expect.any(String),
          tarifa: expect.any(Number),
        });
        expect(cents(p.tarifa as number) % 5).toBe(0); // base per axle × 5 axles
      });
      expect(cents(d.valor_pedagio)).toBe(d.pracas.reduce((s: number, p: { tarifa: number }) => s + cents(p.tarifa), 0));
      const again = await c.call('POST', `${PATH}/roteirizacao`, rota());
      expect(again.body.data).toEqual(d);
    });

    it("the tariff follows the category's axles; the way back crosses the same plazas in reverse", async () => {
      const cinco = (await c.call('POST', `${PATH}/roteirizacao`, rota())).body.data;
      const dois = (await c.call('POST', `${PATH}/roteirizacao`, rota({ categoria: '02' }))).body.data;
      expect(dois.eixos).toBe(2);
      expect(dois.pracas.map((p: { codigo: string }) => p.codigo)).toEqual(cinco.pracas.map((p: { codigo: string }) => p.codigo));
      dois.pracas.forEach((p: { tarifa: number }, i: number) => expect(cents(p.tarifa) * 5).toBe(cents(cinco.pracas[i].tarifa) * 2));
      const volta = (await c.call('POST', `${PATH}/roteirizacao`, { origem: RIO, destino: CAMPINAS, categoria: '07' })).body.data;
      expect(volta.pracas.map((p: { codigo: string }) => p.codigo)).toEqual(
        [...cinco.pracas].reverse().map((p: { codigo: string }) => p.codigo),
      );
      expect(volta.valor_pedagio).toBe(cinco.valor_pedagio);
    });

    it('the same municipality crosses no plaza', async () => {
      const res = await c.call('POST', `${PATH}/roteirizacao`, rota({ destino: CAMPINAS }));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ pracas: [], quantidade_pracas: 0, valor_pedagio: 0, distancia_km: 0 });
    });

    it('400 validacao: unknown municipality (ruling 19), category, plate, missing field', async () => {
      const bad = expectError(
        await c.call('POST', `${PATH}/roteirizacao`, rota({ origem: { municipio: 'Atlantida', uf: 'SP' } })),
        400,
        'validacao',
      );
      expect(bad.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['origem.municipio']);
      expectError(await c.call('POST', `${PATH}/roteirizacao`, rota({ categoria: '05' })), 400, 'validacao');
      expectError(await c.call('POST', `${PATH}/roteirizacao`, rota({ placa: 'AB12345' })), 400, 'validacao');
      expectError(await c.call('POST', `${PATH}/calculo`, { origem: CAMPINAS, categoria: '07' }), 400, 'validacao');
    });

    it('POST /calculo: toll = Σ tariffs, fee 1.5% half up (at least 1.00), total', async () => {
      const r = (await c.call('POST', `${PATH}/roteirizacao`, rota())).body.data;
      const res = await c.call('POST', `${PATH}/calculo`, rota());
      expect(res.status).toBe(200);
      const pedagio = cents(r.valor_pedagio);
      const taxa = Math.max(100, Math.floor((pedagio * 150 + 5000) / 10000));
      expect(res.body.data).toMatchObject({
        categoria: '07',
        eixos: 5,
        quantidade_pracas: r.pracas.length,
        valor_pedagio: r.valor_pedagio,
        taxa: taxa / 100,
        valor_total: (pedagio + taxa) / 100,
        taxa_servico: { percentual: 1.5, minimo: 1 },
      });
      const vazio = await c.call('POST', `${PATH}/calculo`, rota({ destino: CAMPINAS }));
      expect(vazio.body.data).toMatchObject({ quantidade_pracas: 0, valor_pedagio: 0, taxa: 0, valor_total: 0 });
    });
  });

  describe('purchase', () => {
    it('422 saldo_insuficiente with no balance: nothing debited', async () => {
      const fresh = await app.carrier({ scopes: ['operacao'] });
      const body = expectError(await buy({}, fresh), 422, 'saldo_insuficiente');
      expect(body.error.details).toMatchObject({ saldo: 0 });
      expect(await saldo(fresh)).toBe(0);
      expect(await extrato(fresh)).toEqual([]);
      expect(await ledger(fresh)).toEqual([]);
      expect((await fresh.call('GET', PATH)).body.meta.total).toBe(0);
    });

    it('201: the toll pass, debited at once (toll + fee) from the operational account', async () => {
      await credit(c, 5_000);
      const calc = (await c.call('POST', `${PATH}/calculo`, rota())).body.data;
      const ok = await buy({
        motorista: { cpf: '529.982.247-25', nome: 'João  da Silva' },
        tipo: 'placa',
      });
      expect(ok.status).toBe(201);
      const v = ok.body.data;
      expect(v).toMatchObject({
        id: expect.stringMatching(UUID),
        numero: expect.stringMatching(/^\d{20}$/),
        situacao: 'emitido',
        categoria: '07',
        eixos: 5,
        placa: 'ABC1D23',
        tipo: 'placa',
        motorista: { cpf: '52998224725', nome: 'João da Silva' },
        mdfe: null,
        cte: null,
        valor_pedagio: calc.valor_pedagio,
        taxa: calc.taxa,
        valor_total: calc.valor_total,
        quantidade_pracas: calc.quantidade_pracas,
        emitido_em: T0.toISOString(),
        cancelavel_ate: new Date(T0.getTime() + 3 * H).toISOString(),
        cancelavel: true,
        primeira_passagem_em: null,
        cancelado_em: null,
        estornado_em: null,
        pagador: { cnpj: c.cnpj },
        referencia_externa: null,
      });
      expect(v.pracas.every((p: { passou_em: unknown }) => p.passou_em === null)).toBe(true);
      expect(v.mdfe_vale_ped).toEqual({
        CNPJForn: v.fornecedor.cnpj,
        CNPJPg: c.cnpj,
        nCompra: v.numero,
        vValePed: calc.valor_pedagio.toFixed(2),
        tpValePed: '04',
        categCombVeic: '07',
      });
      const movimentos = await extrato();
      const debito = movimentos.find((m) => m.vale_pedagio_id === v.id)!;
      expect(debito).toMatchObject({ tipo: 'debito', valor: -calc.valor_total });
      expect(await saldo()).toBe(movimentos[movimentos.length - 1]!.saldo_apos);
      expect(cents(await saldo())).toBe(movimentos.reduce((s, m) => s + cents(m.valor), 0));
      const get = await c.call('GET', `${PATH}/${v.id}`);
      expect(get.status).toBe(200);
      expect(get.body.data).toEqual(v);
    });

    it('400 validacao: plate, driver CPF, CT-e/MDF-e reference, tipo; 422 rota_sem_pracas', async () => {
      await credit(c, 100);
      const fields = (res: ApiResponse) => expectError(res, 400, 'validacao').error.details.fields.map((f: { field: string }) => f.field);
      expect(
        fields(await buy({ placa: 'XXXXXXX', motorista: { cpf: '52998224724' }, cte: 'not-a-uuid-nor-a-key-but-long-enough-xx' })),
      ).toEqual(['placa', 'motorista.cpf', 'cte']);
      expectError(await buy({ tipo: 'cartao' }), 400, 'validacao');
      expectError(await c.call('POST', PATH, { origem: CAMPINAS, destino: RIO, categoria: '07', tipo: 'TAG' }), 400, 'validacao');
      expectError(await buy({ destino: CAMPINAS }), 422, 'rota_sem_pracas');
    });

    it('referencia_externa: the same purchase again answers 200 and debits once; another route is 400 validacao naming it, as on the CIOT', async () => {
      await credit(c, 5_000);
      const first = await buy({ referencia_externa: 'VIAGEM-77' });
      expect(first.status).toBe(201);
      const before = await saldo();
      const again = await buy({ referencia_externa: 'VIAGEM-77' });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      expect(await saldo()).toBe(before);
      expect((await extrato()).filter((m) => m.vale_pedagio_id === first.body.data.id)).toHaveLength(1);
      const reused = expectError(await buy({ referencia_externa: 'VIAGEM-77', destino: CURITIBA }), 400, 'validacao');
      expect(reused.error.details.fields).toEqual([{ field: 'referencia_externa', message: expect.any(String) }]);
      expect(await saldo()).toBe(before);
      // The same reference in another company is another toll pass.
      await credit(other, 5_000);
      const theirs = await buy({ referencia_externa: 'VIAGEM-77' }, other);
      expect(theirs.status).toBe(201);
      expect(theirs.body.data.id).not.toBe(first.body.data.id);
      // Sent twice at once: one 201, one 200, the same toll pass, one debit.
      const twins = await Promise.all([buy({ referencia_externa: 'VIAGEM-78' }), buy({ referencia_externa: 'VIAGEM-78' })]);
      expect(twins.map((r) => r.status).sort()).toEqual([200, 201]);
      expect(twins[0]!.body.data.id).toBe(twins[1]!.body.data.id);
      expect((await extrato()).filter((m) => m.vale_pedagio_id === twins[0]!.body.data.id)).toHaveLength(1);
    });

    it('two purchases racing for a balance that covers one: one 201, one 422 saldo_insuficiente, one debit', async () => {
      const racer = await app.carrier({ scopes: ['operacao'] });
      const total = cents((await racer.call('POST', `${PATH}/calculo`, rota())).body.data.valor_total as number);
      await credit(racer, (total + Math.floor(total / 2)) / 100);
      const results = await Promise.all([buy({}, racer), buy({}, racer)]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      expectError(results.find((r) => r.status === 422)!, 422, 'saldo_insuficiente');
      const events = await ledger(racer);
      expect(events.map((e) => e.type)).toEqual(['conta_operacional.credito_registrado', 'conta_operacional.debito_registrado']);
      expect(cents(await saldo(racer))).toBe(Math.floor(total / 2));
    });
  });

  describe('cancellation: strictly within 3 hours, before the first passage, full refund', () => {
    it('at 2h59m: 200, cancelled, toll + fee back in the balance and the statement', async () => {
      await credit(c, 5_000);
      const before = await saldo();
      const v = await bought();
      expect(await saldo()).toBeCloseTo(before - v.valor_total, 2);
      now = new Date(T0.getTime() + 2 * H + 59 * MIN);
      expect((await c.call('GET', `${PATH}/${v.id}`)).body.data.cancelavel).toBe(true);
      const res = await c.call('POST', `${PATH}/${v.id}/cancelar`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: v.id,
        situacao: 'cancelado',
        cancelavel: false,
        cancelado_em: now.toISOString(),
        estornado_em: now.toISOString(),
      });
      expect(await saldo()).toBeCloseTo(before, 2);
      const estorno = (await extrato()).filter((m) => m.vale_pedagio_id === v.id);
      expect(estorno.map((m) => [m.tipo, m.valor, m.motivo])).toEqual([
        ['debito', -v.valor_total, null],
        ['estorno', v.valor_total, 'cancelamento'],
      ]);
    });

    it('at exactly 3h00m00s: 422 cancelamento_fora_do_prazo, nothing refunded', async () => {
      await credit(c, 5_000);
      const v = await bought();
      const before = await saldo();
      now = new Date(T0.getTime() + 3 * H);
      expect((await c.call('GET', `${PATH}/${v.id}`)).body.data.cancelavel).toBe(false);
      expectError(await c.call('POST', `${PATH}/${v.id}/cancelar`), 422, 'cancelamento_fora_do_prazo');
      now = new Date(T0.getTime() + 3 * H - 1);
      // one millisecond before the limit is still within
      const ok = await c.call('POST', `${PATH}/${v.id}/cancelar`);
      expect(ok.status).toBe(200);
      expect(await saldo()).toBeCloseTo(before + v.valor_total, 2);
    });

    it('a passage, then cancel: 422 passagem_registrada; passages are recorded per plaza', async () => {
      await credit(c, 5_000);
      const v = await bought();
      now = new Date(T0.getTime() + 30 * MIN);
      const p = await c.call('POST', `${PATH}/${v.id}/passagens`);
      expect(p.status).toBe(200);
      expect(p.body.data).toMatchObject({ situacao: 'em_uso', primeira_passagem_em: now.toISOString(), cancelavel: false });
      expect(p.body.data.pracas[0].passou_em).toBe(now.toISOString());
      expect(p.body.data.pracas[1].passou_em).toBeNull();
      const second = await c.call('POST', `${PATH}/${v.id}/passagens`, { praca: v.pracas[v.pracas.length - 1]!.codigo });
      expect(second.status).toBe(200);
      expect(second.body.data.pracas[v.pracas.length - 1].passou_em).toBe(now.toISOString());
      expectError(await c.call('POST', `${PATH}/${v.id}/passagens`, { praca: 'SIMXX000000' }), 422, 'praca_fora_do_vale');
      const before = await saldo();
      expectError(await c.call('POST', `${PATH}/${v.id}/cancelar`), 422, 'passagem_registrada');
      expect(await saldo()).toBe(before);
    });

    it('twice: 422 vale_pedagio_ja_cancelado, refunded once; no passage on a cancelled toll pass', async () => {
      await credit(c, 5_000);
      const v = await bought();
      expect((await c.call('POST', `${PATH}/${v.id}/cancelar`)).status).toBe(200);
      const after = await saldo();
      expectError(await c.call('POST', `${PATH}/${v.id}/cancelar`), 422, 'vale_pedagio_ja_cancelado');
      expectError(await c.call('POST', `${PATH}/${v.id}/passagens`), 422, 'vale_pedagio_ja_cancelado');
      expect(await saldo()).toBe(after);
      const refunds = (await ledger()).filter(
        (e) => e.type === 'conta_operacional.estorno_registrado' && (e.data as { vale_pedagio_id: string }).vale_pedagio_id === v.id,
      );
      expect(refunds).toHaveLength(1);
    });

    it('two simultaneous cancellations: one 200, one 422, one refund', async () => {
      await credit(c, 5_000);
      const v = await bought();
      const before = await saldo();
      const results = await Promise.all([c.call('POST', `${PATH}/${v.id}/cancelar`), c.call('POST', `${PATH}/${v.id}/cancelar`)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
      expectError(results.find((r) => r.status === 422)!, 422, 'vale_pedagio_ja_cancelado');
      const refunds = (await ledger()).filter(
        (e) => e.type === 'conta_operacional.estorno_registrado' && (e.data as { vale_pedagio_id: string }).vale_pedagio_id === v.id,
      );
      expect(refunds).toHaveLength(1);
      expect(await saldo()).toBeCloseTo(before + v.valor_total, 2);
      const stream = await app.running.platform.store.readStream(`vale-pedagio-${c.companyId}-${v.id}`);
      expect(stream.map((e) => e.type)).toEqual(['vale_pedagio.emitido', 'vale_pedagio.cancelado']);
    });
  });

  describe('reads and receipt', () => {
    it('GET list: latest first, paging (ruling 9) and filters', async () => {
      const list = await c.call('GET', `${PATH}?per_page=2`);
      expect(list.status).toBe(200);
      expect(list.body.meta).toMatchObject({ page: 1, per_page: 2 });
      expect(list.body.meta.total).toBeGreaterThanOrEqual(5);
      expect(list.body.data).toHaveLength(2);
      expect(list.body.data[0]).not.toHaveProperty('pracas');
      const cancelados = await c.call('GET', `${PATH}?situacao=cancelado&per_page=100`);
      expect(cancelados.body.data.length).toBeGreaterThanOrEqual(3);
      expect(cancelados.body.data.every((v: { situacao: string }) => v.situacao === 'cancelado')).toBe(true);
      expect((await c.call('GET', `${PATH}?placa=abc-1d23&per_page=1`)).body.meta.total).toBe(list.body.meta.total);
      expect((await c.call('GET', `${PATH}?from=2026-11-24`)).body.meta.total).toBe(0);
      expectError(await c.call('GET', `${PATH}?per_page=101`), 400, 'validacao');
      expectError(await c.call('GET', `${PATH}?page=0`), 400, 'validacao');
      expectError(await c.call('GET', `${PATH}?from=2026-11-24&to=2026-11-23`), 400, 'validacao');
    });

    it('GET .../recibo: a PDF receipt; a cancelled one says so', async () => {
      await credit(c, 5_000);
      const v = await bought({ motorista: { cpf: '52998224725', nome: 'MARIA' } });
      const fetchPdf = async () => {
        const res = await fetch(`${app.url}${PATH}/${v.id}/recibo`, { headers: { authorization: `Bearer ${c.apiKey}` } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/pdf');
        expect(res.headers.get('content-disposition')).toContain(v.numero);
        return (await pdfPagesText(Buffer.from(await res.arrayBuffer()))).join(' ').replace(/\s+/g, ' ');
      };
      const text = await fetchPdf();
      expect(text).toContain('RECIBO DE VALE-PEDÁGIO OBRIGATÓRIO');
      expect(text).toContain(v.numero);
      expect(text).toContain('ABC1D23');
      expect(text).toContain('SEM VALOR');
      expect(text).toContain('PRAÇA SIMULADA');
      expect(text).not.toContain('CANCELADO EM');
      await c.call('POST', `${PATH}/${v.id}/cancelar`);
      expect(await fetchPdf()).toContain('CANCELADO EM');
    });

    it("404 nao_encontrado: unknown, malformed and another company's toll pass, on every route", async () => {
      await credit(c, 5_000);
      const v = await bought();
      for (const id of ['6f1c2b9e-0000-4000-8000-000000000000', 'nao-e-uuid']) {
        expectError(await c.call('GET', `${PATH}/${id}`), 404, 'nao_encontrado');
        expectError(await c.call('GET', `${PATH}/${id}/recibo`), 404, 'nao_encontrado');
        expectError(await c.call('POST', `${PATH}/${id}/cancelar`), 404, 'nao_encontrado');
        expectError(await c.call('POST', `${PATH}/${id}/passagens`), 404, 'nao_encontrado');
      }
      expectError(await other.call('GET', `${PATH}/${v.id}`), 404, 'nao_encontrado');
      expectError(await other.call('GET', `${PATH}/${v.id}/recibo`), 404, 'nao_encontrado');
      expectError(await other.call('POST', `${PATH}/${v.id}/cancelar`), 404, 'nao_encontrado');
      expectError(await other.call('POST', `${PATH}/${v.id}/passagens`), 404, 'nao_encontrado');
      expect((await other.call('GET', `${PATH}?per_page=100`)).body.data.map((x: { id: string }) => x.id)).not.toContain(v.id);
      expect((await c.call('GET', `${PATH}/${v.id}`)).body.data.situacao).toBe('emitido');
    });

    it('403 escopo_nao_habilitado without `operacao`, on every route', async () => {
      const semEscopo = await app.carrier({ scopes: ['fiscal', 'cadastros', 'consultas'] });
      const id = '6f1c2b9e-0000-4000-8000-000000000000';
      const calls: [string, string, unknown?][] = [
        ['POST', `${PATH}/roteirizacao`, rota()],
        ['POST', `${PATH}/calculo`, rota()],
        ['POST', PATH, compra()],
        ['GET', PATH],
        ['GET', `${PATH}/${id}`],
        ['GET', `${PATH}/${id}/recibo`],
        ['POST', `${PATH}/${id}/passagens`, {}],
        ['POST', `${PATH}/${id}/cancelar`],
      ];
      for (const [method, path, body] of calls) expectError(await semEscopo.call(method, path, body), 403, 'escopo_nao_habilitado');
    });
  });
});
