import { execute, StateCache } from '@frete/application';
import { migrate, platformMigrations } from '@frete/platform';
import {
  type LoteCommand,
  loteDecider,
  type LoteState,
  loteStream,
  CTE,
  type NumeracaoState,
  numeracaoDecider,
  numeracaoStream,
  numeroReservado,
} from '@frete/domain';
import { CONTEXTO_SEM_EMPRESA, withEventStore } from '../support/store';

const ctx = CONTEXTO_SEM_EMPRESA;

describe('execute with a state cache: two processes numbering one series', () => {
  const es = withEventStore();
  beforeAll(async () => {
    await migrate(es.db.pool, platformMigrations);
  });

  it("each process reads only what is new, sees the other's numbers, and never gives a number twice", async () => {
    const a = new StateCache<NumeracaoState>();
    const b = new StateCache<NumeracaoState>();
    const stream = numeracaoStream(CTE, 'company-1', 1);
    const reservar = (cache: StateCache<NumeracaoState>, cteId: string) =>
      execute(
        { store: es.store },
        stream,
        numeracaoDecider,
        { type: 'ReservarNumero', documento: CTE, company_id: 'company-1', serie: 1, documento_id: cteId },
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

  describe('a cached state is decided on without reading, and trusted only as far as the append confirms it', () => {
    const contando = () => {
      let leituras = 0;
      const store = new Proxy(es.store, {
        get: (t, k) =>
          k === 'readStream' ? (...a: Parameters<typeof t.readStream>) => (leituras++, t.readStream(...a)) : Reflect.get(t, k),
      });
      return { store, leituras: () => leituras };
    };
    const linha = (n: number) => ({
      linha: n,
      chave: `3526110000000000000057001000000${String(n).padStart(3, '0')}1000000000`,
      perna: null,
      tipo_servico: 1,
      origem: null,
      destino: null,
      valor_centavos: 100,
      motorista_cpf: '52998224725',
      placa: 'ABC1D23',
    });
    const lote = (cache: StateCache<LoteState>, store: typeof es.store, batch: string, command: LoteCommand) =>
      execute({ store }, loteStream(batch), loteDecider, command, ctx, { cache });
    const criar = (batch: string): LoteCommand => ({
      type: 'CriarLote',
      batch_id: batch,
      company_id: 'sub',
      solicitante_company_id: null,
      ambiente: 'homologacao',
      modo: '1a1',
      parcelas: null,
      linhas: [linha(0), linha(1), linha(2)],
    });
    const registrar = (batch: string, n: number): LoteCommand => ({
      type: 'RegistrarLinha',
      batch_id: batch,
      company_id: 'sub',
      linha: n,
      chave: linha(n).chave,
      perna: null,
      tipo_servico: 1,
      documento_financeiro: null,
      status: 'pending',
      counter_cte_id: `cte-${n}`,
      error: null,
    });
    const rejeitada = (batch: string, n: number): LoteCommand => ({
      type: 'RegistrarLinhaRejeitada',
      batch_id: batch,
      company_id: 'sub',
      linha: n,
      counter_cte_id: `cte-${n}`,
      error: { code: 'cte_rejeitado', message: 'refused' },
    });

    it('a process that alone writes a stream appends without reading it again', async () => {
      const { store, leituras } = contando();
      const cache = new StateCache<LoteState>();
      await lote(cache, store, 'b-1', criar('b-1'));
      const depoisDaPrimeira = leituras();
      for (const n of [0, 1, 2]) await lote(cache, store, 'b-1', registrar('b-1', n));
      expect(leituras()).toBe(depoisDaPrimeira);
      expect(cache.get(loteStream('b-1'))!.revision).toBe(3n);
    });

    it("a stale cache: the append is refused, the other writer's events are read and the command decided again", async () => {
      const { store } = contando();
      const a = new StateCache<LoteState>();
      const b = new StateCache<LoteState>();
      await lote(a, store, 'b-2', criar('b-2'));
      await lote(b, store, 'b-2', registrar('b-2', 0));
      // a's state has no row 0, where its outcome is refused; the stream has it, where it is accepted.
      const r = await lote(a, store, 'b-2', rejeitada('b-2', 0));
      expect(r.events.map((e) => e.type)).toEqual(['lote.linha_rejeitada']);
      expect((await es.store.readStream(loteStream('b-2'))).map((e) => e.type)).toEqual([
        'lote.criado',
        'lote.linha_processada',
        'lote.linha_rejeitada',
      ]);
      // A no-op on a cached state is checked against the stream before it is answered: b's cache lacks the outcome.
      expect((await lote(b, store, 'b-2', rejeitada('b-2', 0))).events).toEqual([]);
      expect((await es.store.readStream(loteStream('b-2'))).length).toBe(3);
    });
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
