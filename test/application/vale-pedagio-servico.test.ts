import { randomUUID } from 'node:crypto';
import { type NewEvent } from '@frete/contracts';
import { type ContextoEmpresa, type PedidoValePedagio, ServicoValePedagio } from '@frete/application';
import { DepositosSimulados, ProvedorValePedagioSimulado, roteiroSimulado } from '@frete/adapters';
import { type EventStore, type ExpectedRevision } from '@frete/platform';
import { contaOperacionalStream, Rejection, valePedagioStream } from '@frete/domain';
import { withEventStore } from '../support/store';

/**
 * The toll pass's steps across two aggregates are each safe to repeat: an interrupted purchase or cancellation is
 * finished by doing it again, and the ledger never debits nor refunds twice.
 */
const CAMPINAS = { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' };
const RIO = { codigo_ibge: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ' };
const pedido = (extra: Partial<PedidoValePedagio> = {}): PedidoValePedagio => ({
  origem: CAMPINAS,
  destino: RIO,
  categoria: '07',
  placa: 'ABC1D23',
  tipo: 'TAG',
  motorista: null,
  cte: null,
  mdfe: null,
  referencia_externa: null,
  ...extra,
});

/** An event store whose next append to a stream matching `failOn` fails once, as a crash between two steps would. */
function faulty(inner: EventStore): EventStore & { failOn: RegExp | null } {
  const s = Object.create(inner) as EventStore & { failOn: RegExp | null };
  s.failOn = null;
  s.append = async (streamId: string, events: NewEvent[], expected: ExpectedRevision) => {
    if (s.failOn?.test(streamId)) {
      s.failOn = null;
      throw new Error('connection lost');
    }
    return inner.append(streamId, events, expected);
  };
  return s;
}

describe('ServicoValePedagio: interrupted steps', () => {
  const ctx = withEventStore();
  let companyId: string;
  const at = (ms = 0): ContextoEmpresa => ({
    companyId,
    correlationId: randomUUID(),
    causationId: null,
    requestId: null,
    actor: 'test',
    now: new Date(Date.parse('2026-11-23T13:00:00Z') + ms),
  });
  const tipos = async (stream: string) => (await ctx.store.readStream(stream)).map((e) => e.type);
  const total = () => {
    const r = roteiroSimulado(CAMPINAS, RIO, '07');
    const pedagio = r.pracas.reduce((s, p) => s + p.tarifa_centavos, 0);
    return pedagio + Math.max(100, Math.floor((pedagio * 150 + 5000) / 10000));
  };

  /** The service on the file's store (or `store`) and the simulated supplier (or `provedor`), its account credited `credito`. */
  const servico = async (o: { store?: EventStore; provedor?: ProvedorValePedagioSimulado; credito?: number } = {}) => {
    const s = new ServicoValePedagio({
      store: o.store ?? ctx.store,
      pool: ctx.db.pool,
      provedor: o.provedor ?? new ProvedorValePedagioSimulado(),
      depositos: new DepositosSimulados(),
    });
    await s.creditar(at(), { referencia: 'D1', valor_centavos: o.credito ?? 100_000 });
    return s;
  };

  beforeEach(() => {
    companyId = randomUUID();
  });

  it('the supplier fails after the debit: the debit is refunded (compra_nao_concluida), no toll pass', async () => {
    const provedor = new ProvedorValePedagioSimulado();
    provedor.comprar = () => Promise.reject(new Rejection('provedor_indisponivel', 'supplier down'));
    const s = await servico({ provedor });
    await expect(s.comprar(at(), '11222333000181', pedido())).rejects.toMatchObject({ code: 'provedor_indisponivel' });
    const ledger = await ctx.store.readStream(contaOperacionalStream(companyId));
    expect(ledger.map((e) => e.type)).toEqual([
      'conta_operacional.credito_registrado',
      'conta_operacional.debito_registrado',
      'conta_operacional.estorno_registrado',
    ]);
    expect(ledger[2]!.data).toMatchObject({ motivo: 'compra_nao_concluida', saldo_apos_centavos: 100_000 });
  });

  it('a referencia_externa whose purchase was refunded is used up: resending it is validacao naming it, nothing debited', async () => {
    const provedor = new ProvedorValePedagioSimulado();
    const comprar = provedor.comprar.bind(provedor);
    provedor.comprar = () => Promise.reject(new Rejection('provedor_indisponivel', 'supplier down'));
    const s = await servico({ provedor });
    await expect(s.comprar(at(), '11222333000181', pedido({ referencia_externa: 'V-R' }))).rejects.toMatchObject({
      code: 'provedor_indisponivel',
    });
    provedor.comprar = comprar;
    await expect(s.comprar(at(), '11222333000181', pedido({ referencia_externa: 'V-R' }))).rejects.toMatchObject({
      code: 'validacao',
      details: { fields: [{ field: 'referencia_externa', message: expect.any(String) }] },
    });
    expect(await tipos(contaOperacionalStream(companyId))).toHaveLength(3);
  });

  it('a crash between the debit and the issue: resending the referencia_externa finishes it, debited once', async () => {
    const store = faulty(ctx.store);
    const s = await servico({ store });
    store.failOn = /^vale-pedagio-/;
    await expect(s.comprar(at(), '11222333000181', pedido({ referencia_externa: 'V-1' }))).rejects.toThrow('connection lost');
    expect(await tipos(contaOperacionalStream(companyId))).toEqual([
      'conta_operacional.credito_registrado',
      'conta_operacional.debito_registrado',
    ]);
    const r = await s.comprar(at(1000), '11222333000181', pedido({ referencia_externa: 'V-1' }));
    expect(r.criado).toBe(true);
    expect(await tipos(valePedagioStream(companyId, r.vale_pedagio_id))).toEqual(['vale_pedagio.emitido']);
    const ledger = await ctx.store.readStream(contaOperacionalStream(companyId));
    expect(ledger.map((e) => e.type)).toEqual(['conta_operacional.credito_registrado', 'conta_operacional.debito_registrado']);
    expect(ledger[1]!.data).toMatchObject({ saldo_apos_centavos: 100_000 - total() });
    // And again: the same toll pass, nothing new.
    expect(await s.comprar(at(2000), '11222333000181', pedido({ referencia_externa: 'V-1' }))).toEqual({
      vale_pedagio_id: r.vale_pedagio_id,
      criado: false,
    });
    await expect(s.comprar(at(2000), '11222333000181', pedido({ referencia_externa: 'V-1', placa: 'XYZ9A88' }))).rejects.toMatchObject({
      code: 'validacao',
    });
    expect(await tipos(contaOperacionalStream(companyId))).toHaveLength(2);
  });

  it('a crash between the cancellation and the refund: the next request refunds, once, and answers vale_pedagio_ja_cancelado', async () => {
    const store = faulty(ctx.store);
    const s = await servico({ store });
    const { vale_pedagio_id: id } = await s.comprar(at(), '11222333000181', pedido());
    store.failOn = /^conta-operacional-/;
    await expect(s.cancelar(at(60_000), id)).rejects.toThrow('connection lost');
    expect(await tipos(valePedagioStream(companyId, id))).toEqual(['vale_pedagio.emitido', 'vale_pedagio.cancelado']);
    expect(await tipos(contaOperacionalStream(companyId))).toHaveLength(2);
    await expect(s.cancelar(at(120_000), id)).rejects.toMatchObject({ code: 'vale_pedagio_ja_cancelado' });
    await expect(s.cancelar(at(130_000), id)).rejects.toMatchObject({ code: 'vale_pedagio_ja_cancelado' });
    const ledger = await ctx.store.readStream(contaOperacionalStream(companyId));
    expect(ledger.map((e) => e.type)).toEqual([
      'conta_operacional.credito_registrado',
      'conta_operacional.debito_registrado',
      'conta_operacional.estorno_registrado',
    ]);
    expect(ledger[2]!.data).toMatchObject({ motivo: 'cancelamento', saldo_apos_centavos: 100_000 });
  });

  it('many purchases at once against one balance: never overdrawn', async () => {
    const s = await servico({ credito: total() * 3 + 1 });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => s.comprar(at(), '11222333000181', pedido())));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'saldo_insuficiente' });
    const ledger = await ctx.store.readStream(contaOperacionalStream(companyId));
    expect(ledger.filter((e) => e.type === 'conta_operacional.debito_registrado')).toHaveLength(3);
    expect(ledger[ledger.length - 1]!.data).toMatchObject({ saldo_apos_centavos: 1 });
  });
});
