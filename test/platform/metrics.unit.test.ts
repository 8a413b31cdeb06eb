import { type NewEvent, START } from '@frete/contracts';
import {
  ConcurrentDispatch,
  type EventStore,
  MeasuredEventStore,
  Metrics,
  measuredProcessor,
  type Processor,
  WrongExpectedRevision,
} from '@frete/platform';
import { type AutoridadeFiscal, AutoridadeFiscalMedida, AutoridadeIndisponivel, type RetornoAutorizacao } from '@frete/adapters';
import { parseExposition } from '../support/prometheus';
import { eventoGravado as event } from '../support/evento-gravado';

const scrape = async (metrics: Metrics) => parseExposition(await metrics.render());

/** A store whose answers each test sets. */
function fakeStore(over: Partial<EventStore> = {}): EventStore {
  return {
    kind: 'postgres',
    append: () => Promise.resolve({ nextRevision: 0n, position: START }),
    readStream: () => Promise.resolve([event(1, 's')]),
    readAll: () => Promise.resolve([]),
    subscribeToAll: () => ({ stop: () => Promise.resolve(), done: Promise.resolve() }),
    headPosition: () => Promise.resolve(START),
    close: () => Promise.resolve(),
    ...over,
  };
}

const newEvent = (id: string): NewEvent => ({ id, type: 'test.pinged', schemaVersion: 1, data: {}, metadata: event(0, 's').metadata });

describe('MeasuredEventStore', () => {
  it('times appends by outcome (ok, conflict, error) and reads by operation, and rethrows what the store threw', async () => {
    const metrics = new Metrics();
    let fail: Error | null = null;
    const store = new MeasuredEventStore(
      fakeStore({
        append: () => (fail ? Promise.reject(fail) : Promise.resolve({ nextRevision: 1n, position: START })),
        readAll: () => Promise.reject(new Error('connection lost')),
      }),
      metrics,
    );
    await store.append('s', [newEvent('a'), newEvent('b')], 'any');
    const conflict = new WrongExpectedRevision('s', 0n, 1n);
    fail = conflict;
    await expect(store.append('s', [newEvent('c')], 0n)).rejects.toBe(conflict);
    fail = new Error('disk full');
    await expect(store.append('s', [newEvent('d')], 'any')).rejects.toThrow('disk full');
    expect(await store.readStream('s')).toHaveLength(1);
    await expect(store.readAll(START, 10)).rejects.toThrow('connection lost');

    const m = await scrape(metrics);
    expect(m.value('frete_event_store_append_duration_seconds_count', { outcome: 'ok' })).toBe(1);
    expect(m.value('frete_event_store_append_duration_seconds_count', { outcome: 'conflict' })).toBe(1);
    expect(m.value('frete_event_store_append_duration_seconds_count', { outcome: 'error' })).toBe(1);
    expect(m.value('frete_event_store_appended_events_total')).toBe(2);
    expect(m.value('frete_event_store_read_duration_seconds_count', { operation: 'read_stream', outcome: 'ok' })).toBe(1);
    expect(m.value('frete_event_store_read_duration_seconds_count', { operation: 'read_all', outcome: 'error' })).toBe(1);
    expect(store.kind).toBe('postgres');
  });

  it('never fails an append because a metric failed', async () => {
    const metrics = new Metrics();
    jest.spyOn(metrics.storeAppendDuration, 'observe').mockImplementation(() => {
      throw new Error('broken metric');
    });
    const store = new MeasuredEventStore(fakeStore(), metrics);
    await expect(store.append('s', [newEvent('a')], 'any')).resolves.toEqual({ nextRevision: 0n, position: START });
  });
});

describe('measuredProcessor', () => {
  /** A processor whose handlers wait until the test releases (or fails) them. */
  function gated(): { processor: Processor; release(id: string, err?: Error): void; started: string[] } {
    const waiting = new Map<string, { resolve: () => void; reject: (err: Error) => void }>();
    const started: string[] = [];
    return {
      started,
      processor: {
        name: 'emission',
        handles: (type) => type !== 'test.ignored',
        handle: (e) =>
          new Promise<void>((resolve, reject) => {
            started.push(e.id);
            waiting.set(e.id, { resolve, reject });
          }),
      },
      release(id, err) {
        const w = waiting.get(id)!;
        if (err) w.reject(err);
        else w.resolve();
      },
    };
  }
  const tick = () => new Promise((r) => setImmediate(r));

  it('counts events admitted and not yet handled (those waiting behind their key too), and times each by type and outcome', async () => {
    const metrics = new Metrics();
    const g = gated();
    const p = measuredProcessor(g.processor, metrics);
    const failures: unknown[] = [];
    const dispatch = new ConcurrentDispatch({
      concurrency: 8,
      keyOf: (e) => p.keyOf!(e),
      handle: (e) => p.handle(e),
      checkpoint: () => Promise.resolve(),
      onFailure: (err) => failures.push(err),
    });
    await dispatch.submit(event(1, 'a').position, event(1, 'a'));
    await dispatch.submit(event(2, 'a').position, event(2, 'a', 'test.other'));
    await dispatch.submit(event(3, 'b').position, event(3, 'b'));
    await tick();
    // e2 waits behind e1 (same stream): three received, two started.
    expect(g.started).toEqual(['e1', 'e3']);
    expect((await scrape(metrics)).value('frete_processor_queue_depth', { processor: 'emission' })).toBe(3);

    g.release('e1');
    await tick();
    expect(g.started).toEqual(['e1', 'e3', 'e2']);
    expect((await scrape(metrics)).value('frete_processor_queue_depth', { processor: 'emission' })).toBe(2);
    g.release('e2');
    g.release('e3', new Error('authority down'));
    await dispatch.settle();
    expect(failures).toEqual([new Error('authority down')]);

    const m = await scrape(metrics);
    expect(m.value('frete_processor_queue_depth', { processor: 'emission' })).toBe(0);
    const count = (event_type: string, outcome: string) =>
      m.value('frete_processor_handling_duration_seconds_count', { processor: 'emission', event_type, outcome });
    expect([count('test.pinged', 'ok'), count('test.other', 'ok'), count('test.pinged', 'error')]).toEqual([1, 1, 1]);
  });

  it('empties the queue when a handler fails: what waited behind it is dropped and comes back from the checkpoint', async () => {
    const metrics = new Metrics();
    const g = gated();
    const p = measuredProcessor(g.processor, metrics);
    const dispatch = new ConcurrentDispatch({
      concurrency: 8,
      keyOf: (e) => p.keyOf!(e),
      handle: (e) => p.handle(e),
      checkpoint: () => Promise.resolve(),
      onFailure: () => undefined,
    });
    await dispatch.submit(event(1, 'a').position, event(1, 'a'));
    await dispatch.submit(event(2, 'a').position, event(2, 'a'));
    await tick();
    expect((await scrape(metrics)).value('frete_processor_queue_depth', { processor: 'emission' })).toBe(2);
    g.release('e1', new Error('authority down'));
    await dispatch.settle();
    // e2 never ran: the restart delivers it again.
    expect(g.started).toEqual(['e1']);
    expect((await scrape(metrics)).value('frete_processor_queue_depth', { processor: 'emission' })).toBe(0);
  });

  it("keeps the processor's own key, filter and name, and the stream as the default key", () => {
    const metrics = new Metrics();
    const plain = measuredProcessor({ name: 'payout', handles: () => true, handle: () => Promise.resolve() }, metrics);
    expect(plain.keyOf!(event(1, 'stream-1'))).toBe('stream-1');
    expect(plain.needs).toBeUndefined();
    const own = measuredProcessor(
      { name: 'webhooks', handles: (t) => t === 'x', handle: () => Promise.resolve(), keyOf: () => 'company', needs: () => false },
      metrics,
    );
    expect([own.name, own.keyOf!(event(1, 's')), own.needs!(event(1, 's')), own.handles('x'), own.handles('y')]).toEqual([
      'webhooks',
      'company',
      false,
      true,
      false,
    ]);
  });

  it("never fails a handler because a metric failed, and passes the handler's own failure through", async () => {
    const metrics = new Metrics();
    jest.spyOn(metrics.processorHandlingDuration, 'observe').mockImplementation(() => {
      throw new Error('broken metric');
    });
    let fail = false;
    const p = measuredProcessor(
      { name: 'emission', handles: () => true, handle: () => (fail ? Promise.reject(new Error('handler')) : Promise.resolve()) },
      metrics,
    );
    await expect(p.handle(event(1, 's'))).resolves.toBeUndefined();
    fail = true;
    await expect(p.handle(event(2, 's'))).rejects.toThrow('handler');
  });
});

describe('AutoridadeFiscalMedida', () => {
  const protocolo = { cStat: 100 } as unknown as Extract<RetornoAutorizacao, { tipo: 'autorizado' }>['protocolo'];

  it('times every call by operation and outcome and counts the cStat answered, a paralysed channel included', async () => {
    const metrics = new Metrics();
    let answer: () => Promise<RetornoAutorizacao> = () => Promise.resolve({ tipo: 'autorizado', cStat: 100, xMotivo: 'ok', protocolo });
    const inner = {
      disponivel: true,
      autorizarCte: () => answer(),
      close: jest.fn(() => Promise.resolve()),
    } as unknown as AutoridadeFiscal & { close(): Promise<void> };
    const autoridade = new AutoridadeFiscalMedida(inner, metrics, 'sefaz');
    const remetente = { companyId: 'c1' };
    expect((await autoridade.autorizarCte('<CTe/>', remetente)).tipo).toBe('autorizado');
    answer = () => Promise.resolve({ tipo: 'rejeitado', cStat: 539, xMotivo: 'duplicidade' });
    expect((await autoridade.autorizarCte('<CTe/>', remetente)).tipo).toBe('rejeitado');
    answer = () => Promise.resolve({ tipo: 'sem_resposta', motivo: 'timeout' });
    expect((await autoridade.autorizarCte('<CTe/>', remetente)).tipo).toBe('sem_resposta');
    const paralisada = new AutoridadeIndisponivel('paralisada', 108, 'Serviço Paralisado Momentaneamente', new Date());
    answer = () => Promise.reject(paralisada);
    await expect(autoridade.autorizarCte('<CTe/>', remetente)).rejects.toBe(paralisada);
    expect(autoridade.disponivel).toBe(true);
    await autoridade.close();
    expect(inner.close).toHaveBeenCalledTimes(1);

    const m = await scrape(metrics);
    const labels = { adapter: 'sefaz', operation: 'autorizar_cte' };
    const calls = (outcome: string) => m.value('frete_autoridade_request_duration_seconds_count', { ...labels, outcome });
    expect([calls('autorizado'), calls('rejeitado'), calls('sem_resposta'), calls('indisponivel')]).toEqual([1, 1, 1, 1]);
    expect(m.find('frete_autoridade_cstat_total').map((s) => [s.labels.cstat, s.value])).toEqual([
      ['100', 1],
      ['539', 1],
      ['108', 1],
    ]);
  });
});

describe('Metrics scrape-time gauges', () => {
  it('reads the lags and the batch rows at each scrape, and leaves out (and counts) a reading that failed', async () => {
    const metrics = new Metrics();
    let lag: () => Promise<{ events: number; seconds: number }> = () => Promise.resolve({ events: 7, seconds: 2.5 });
    metrics.watchProjections({ name: 'read-models', lag: () => lag() });
    metrics.watchRelay('relay:kafka', () => Promise.resolve({ events: 3, seconds: 1 }));
    metrics.watchLoteLinhas(() =>
      Promise.resolve([
        { status: 'emitted', linhas: 5 },
        { status: 'pending', linhas: 2 },
      ]),
    );
    let m = await scrape(metrics);
    expect([m.value('frete_projection_lag_events', { projector: 'read-models' }), m.value('frete_projection_lag_seconds')]).toEqual([
      7, 2.5,
    ]);
    expect([m.value('frete_relay_lag_events', { relay: 'relay:kafka' }), m.value('frete_relay_lag_seconds')]).toEqual([3, 1]);
    expect([m.value('frete_lote_linhas', { status: 'emitted' }), m.value('frete_lote_linhas', { status: 'pending' })]).toEqual([5, 2]);

    lag = () => Promise.reject(new Error('database unreachable'));
    m = await scrape(metrics);
    expect([m.find('frete_projection_lag_events'), m.find('frete_projection_lag_seconds')]).toEqual([[], []]);
    expect(m.value('frete_metrics_collect_errors_total', { metric: 'frete_projection_lag' })).toBe(1);
    // The other gauges are still there.
    expect(m.value('frete_relay_lag_events', { relay: 'relay:kafka' })).toBe(3);
  });

  it('keeps a registry per instance: two services in one process count apart', async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.httpRequests.inc({ method: 'GET', route: '/health', status: '200' });
    expect((await scrape(a)).value('frete_http_requests_total', { route: '/health' })).toBe(1);
    expect((await scrape(b)).find('frete_http_requests_total')).toEqual([]);
    expect(a.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });
});
