import { type NewEvent, type RecordedEvent } from '@frete/contracts';
import {
  CTE,
  numeracaoDecider,
  numeracaoStream,
  numeroReservado,
  chaveSubcontratadaDecider,
  chaveSubcontratadaStream,
} from '@frete/domain';
import {
  type AppendResult,
  type EventStore,
  migrate,
  platformMigrations,
  PostgresEventStore,
  WrongExpectedRevision,
} from '@frete/platform';
import { execute, MAX_ATTEMPTS } from '@frete/application';
import { CONTEXTO_SEM_EMPRESA, withEventStore } from '../support/store';

const ctx = CONTEXTO_SEM_EMPRESA;

const reservar = (store: EventStore, stream: string, cteId: string) =>
  execute(
    { store },
    stream,
    numeracaoDecider,
    { type: 'ReservarNumero', documento: CTE, company_id: 'company-1', serie: 1, documento_id: cteId },
    ctx,
  );

const numerosDe = async (store: EventStore, stream: string) =>
  (await store.readStream(stream)).map((e) => (e.data as { numero: number }).numero);

describe('execute: concurrent commands on one stream', () => {
  const es = withEventStore();
  beforeAll(async () => {
    await migrate(es.db.pool, platformMigrations);
  });

  it('in one process they take turns: 20 at once append 20 times, none retries', async () => {
    const stream = numeracaoStream(CTE, 'company-1', 1);
    const append = jest.spyOn(es.store, 'append');
    try {
      await Promise.all(Array.from({ length: 20 }, (_, i) => reservar(es.store, stream, `cte-${i}`)));
      expect(append).toHaveBeenCalledTimes(20);
    } finally {
      append.mockRestore();
    }
    expect(await numerosDe(es.store, stream)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('writers of other processes (a store object each, no lock in common) all get through the retries', async () => {
    const stream = numeracaoStream(CTE, 'company-1', 2);
    const processos = Array.from({ length: 20 }, () => new PostgresEventStore(es.db.pool));
    const feitos = await Promise.all(processos.map((store, i) => reservar(store, stream, `cte-${i}`)));
    expect(feitos.map((r, i) => numeroReservado(r.state.reservas, `cte-${i}`)).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(await numerosDe(es.store, stream)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe('execute with the stream as the caller just read it (`lido`)', () => {
  const es = withEventStore();
  beforeAll(async () => {
    await migrate(es.db.pool, platformMigrations);
  });
  const comando = (cteId: string) => ({
    type: 'ReservarNumero' as const,
    documento: CTE,
    company_id: 'company-1',
    serie: 9,
    documento_id: cteId,
  });

  it('decides on it without reading the stream, appending where the caller saw it end', async () => {
    const stream = numeracaoStream(CTE, 'company-1', 9);
    const ler = jest.spyOn(es.store, 'readStream');
    try {
      const r = await execute({ store: es.store }, stream, numeracaoDecider, comando('cte-a'), ctx, {
        lido: { state: numeracaoDecider.initialState, revision: null },
      });
      expect(numeroReservado(r.state.reservas, 'cte-a')).toBe(1);
      expect(ler).not.toHaveBeenCalled();
    } finally {
      ler.mockRestore();
    }
  });

  it('a stream written since (another writer) is read and decided on again: nothing is lost or numbered twice', async () => {
    const stream = numeracaoStream(CTE, 'company-1', 10);
    await reservar(es.store, stream, 'cte-outro');
    // The caller saw no stream; another writer reserved number 1 meanwhile.
    const r = await execute({ store: es.store }, stream, numeracaoDecider, comando('cte-b'), ctx, {
      lido: { state: numeracaoDecider.initialState, revision: null },
    });
    expect(numeroReservado(r.state.reservas, 'cte-b')).toBe(2);
    expect(await numerosDe(es.store, stream)).toEqual([1, 2]);
  });

  it('a contractor key taken before, decided on as if taken for the first time, is read and refused as the log says', async () => {
    const stream = chaveSubcontratadaStream('company-1', 'K1');
    const reservar = (cte_id: string) =>
      execute(
        { store: es.store },
        stream,
        chaveSubcontratadaDecider,
        {
          type: 'ReservarSubcontratacao',
          company_id: 'company-1',
          chave: 'K1',
          modo: '1a1',
          cte_id,
          inicio_ibge: '3509502',
          fim_ibge: '3550308',
        },
        ctx,
        { lido: { state: chaveSubcontratadaDecider.initialState, revision: null } },
      );
    await reservar('cte-x');
    await expect(reservar('cte-y')).rejects.toMatchObject({ code: 'duplicated', details: { counter_cte_id: 'cte-x' } });
    expect((await es.store.readStream(stream)).map((e) => e.type)).toEqual(['subcontratacao.reservada']);
  });
});

/** A store whose appends meet a concurrent writer `conflitos` times before one gets through. */
function storeEmDisputa(conflitos: number) {
  const appends: string[] = [];
  const store = {
    kind: 'postgres',
    readStream: async (): Promise<RecordedEvent[]> => [],
    append: async (streamId: string, _events: NewEvent[]): Promise<AppendResult> => {
      appends.push(streamId);
      if (appends.length <= conflitos) throw new WrongExpectedRevision(streamId, 'no_stream', 0n);
      return { nextRevision: 0n, position: { commit: 1n, prepare: 1n } };
    },
  } as unknown as EventStore;
  return { store, appends };
}

describe('execute: the retry budget', () => {
  // The pauses drawn as 0: these tests count attempts, the real pauses are exercised above.
  beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
  afterEach(() => jest.restoreAllMocks());

  it('a conflict is decided again, up to the budget', async () => {
    const { store, appends } = storeEmDisputa(MAX_ATTEMPTS - 1);
    const r = await reservar(store, 's', 'cte-1');
    expect(r.events).toHaveLength(1);
    expect(appends).toHaveLength(MAX_ATTEMPTS);
  });

  it('a conflict that outlives the budget is thrown as such', async () => {
    const { store, appends } = storeEmDisputa(Infinity);
    await expect(reservar(store, 's', 'cte-1')).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect(appends).toHaveLength(MAX_ATTEMPTS);
  });

  it('another error is not retried', async () => {
    const { store, appends } = storeEmDisputa(0);
    store.append = async () => {
      appends.push('x');
      throw new Error('connection lost');
    };
    await expect(reservar(store, 's', 'cte-1')).rejects.toThrow('connection lost');
    expect(appends).toHaveLength(1);
  });
});
