import { execute, StateCache, type CommandContext } from '@frete/application';
import { migrate, platformMigrations } from '@frete/platform';
import { type NumeracaoCteState, numeracaoCteDecider, numeracaoCteStream, numeroReservado } from '@frete/domain';
import { withEventStore } from '../support/store';

const ctx: CommandContext = {
  companyId: null,
  correlationId: 'c',
  causationId: null,
  requestId: null,
  actor: 'test',
  now: new Date('2026-11-22T12:00:00Z'),
};

describe('execute with a state cache: two processes numbering one series', () => {
  const es = withEventStore();
  beforeAll(async () => {
    await migrate(es.db.pool, platformMigrations);
  });

  it("each process reads only what is new, sees the other's numbers, and never gives a number twice", async () => {
    const a = new StateCache<NumeracaoCteState>();
    const b = new StateCache<NumeracaoCteState>();
    const stream = numeracaoCteStream('company-1', 1);
    const reservar = (cache: StateCache<NumeracaoCteState>, cteId: string) =>
      execute(
        { store: es.store },
        stream,
        numeracaoCteDecider,
        { type: 'ReservarNumeroCte', company_id: 'company-1', serie: 1, cte_id: cteId },
        ctx,
        { cache },
      );
    const numeros: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await reservar(i % 2 === 0 ? a : b, `cte-${i}`);
      numeros.push(numeroReservado(r.state.reservas, `cte-${i}`)!);
    }
    expect(numeros).toEqual([1, 2, 3, 4, 5, 6]);
    // Racing on stale caches: both fold what the other wrote before deciding, one waits for its turn.
    const [x, y] = await Promise.all([reservar(a, 'cte-x'), reservar(b, 'cte-y')]);
    expect([numeroReservado(x.state.reservas, 'cte-x'), numeroReservado(y.state.reservas, 'cte-y')].sort()).toEqual([7, 8]);
    // A repeat finds the number given before, through the cache.
    expect((await reservar(b, 'cte-0')).events).toEqual([]);
    expect(a.get(stream)!.revision).toBeLessThanOrEqual(7n);
    expect((await es.store.readStream(stream)).length).toBe(8);
  });

  it('drops the least recently used stream beyond its bound', () => {
    const cache = new StateCache<number>(2);
    cache.set('s1', 1, 0n);
    cache.set('s2', 2, 0n);
    cache.get('s1');
    cache.set('s3', 3, 0n);
    expect([cache.get('s1')?.state, cache.get('s2'), cache.get('s3')?.state]).toEqual([1, undefined, 3]);
  });
});
