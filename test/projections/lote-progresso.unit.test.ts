import { progressoDoLote } from '@frete/projections';

const inicio = new Date('2026-11-24T12:00:00.000Z');
const em = (s: number) => new Date(inicio.getTime() + s * 1000);

describe('progressoDoLote: the batch report progress', () => {
  it('nothing processed yet: every row queued, no estimate', () => {
    expect(progressoDoLote({ total_linhas: 4, created_at: inicio, concluido_em: null }, [])).toEqual({
      total: 4,
      processed: 0,
      completed: 0,
      counts: { queued: 4, pending: 0, emitted: 0, duplicated: 0, failed: 0 },
      started_at: '2026-11-24T12:00:00.000Z',
      finished_at: null,
      estimated_seconds_left: null,
    });
  });

  it('while it runs: counts by status, and rows left × mean time per final row so far', () => {
    const p = progressoDoLote({ total_linhas: 10, created_at: inicio, concluido_em: null }, [
      { status: 'emitted', updated_at: em(2) },
      { status: 'failed', updated_at: em(3) },
      { status: 'duplicated', updated_at: em(1) },
      { status: 'pending', updated_at: em(30) },
    ]);
    expect(p.counts).toEqual({ queued: 6, pending: 1, emitted: 1, duplicated: 1, failed: 1 });
    expect([p.processed, p.completed]).toEqual([4, 3]);
    // 3 final rows in 3 s (the last final one at +3 s; a pending row's time is not progress): 1 s each, 7 rows left.
    expect(p.estimated_seconds_left).toBe(7);
  });

  it('only pending rows: no estimate yet; rounded up to whole seconds', () => {
    expect(
      progressoDoLote({ total_linhas: 2, created_at: inicio, concluido_em: null }, [{ status: 'pending', updated_at: em(5) }])
        .estimated_seconds_left,
    ).toBeNull();
    expect(
      progressoDoLote({ total_linhas: 3, created_at: inicio, concluido_em: null }, [
        { status: 'emitted', updated_at: new Date(inicio.getTime() + 100) },
      ]).estimated_seconds_left,
    ).toBe(1);
  });

  it('finished (its decider said so): the end time, no estimate, even if a row still waits', () => {
    const p = progressoDoLote({ total_linhas: 2, created_at: inicio, concluido_em: em(9) }, [
      { status: 'emitted', updated_at: em(4) },
      { status: 'failed', updated_at: em(8) },
    ]);
    expect([p.finished_at, p.estimated_seconds_left, p.counts.queued]).toEqual(['2026-11-24T12:00:09.000Z', null, 0]);
  });
});
