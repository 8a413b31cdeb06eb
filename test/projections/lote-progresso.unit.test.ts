import { progressoDeContagem } from '@frete/projections';

const inicio = new Date('2026-11-24T12:00:00.000Z');
const em = (s: number) => new Date(inicio.getTime() + s * 1000);
const nada = { pending: 0, emitted: 0, duplicated: 0, failed: 0, ultima_final: null };

/** The rows are counted in SQL (the report's and the list's query); the rules of what the counts show are here. */
describe('progressoDeContagem: the batch report progress', () => {
  it('nothing processed yet: every row queued, no estimate', () => {
    expect(progressoDeContagem({ total_linhas: 4, created_at: inicio, concluido_em: null }, nada)).toEqual({
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
    const p = progressoDeContagem(
      { total_linhas: 10, created_at: inicio, concluido_em: null },
      { pending: 1, emitted: 1, duplicated: 1, failed: 1, ultima_final: em(3) },
    );
    expect(p.counts).toEqual({ queued: 6, pending: 1, emitted: 1, duplicated: 1, failed: 1 });
    expect([p.processed, p.completed]).toEqual([4, 3]);
    // 3 final rows in 3 s (the last final one at +3 s; a pending row's time is not progress): 1 s each, 7 rows left.
    expect(p.estimated_seconds_left).toBe(7);
  });

  it('only pending rows: no estimate yet; rounded up to whole seconds', () => {
    expect(
      progressoDeContagem({ total_linhas: 2, created_at: inicio, concluido_em: null }, { ...nada, pending: 1 }).estimated_seconds_left,
    ).toBeNull();
    expect(
      progressoDeContagem(
        { total_linhas: 3, created_at: inicio, concluido_em: null },
        { ...nada, emitted: 1, ultima_final: new Date(inicio.getTime() + 100) },
      ).estimated_seconds_left,
    ).toBe(1);
  });

  it('finished (its decider said so): the end time, no estimate, even if a row still waits', () => {
    const p = progressoDeContagem(
      { total_linhas: 2, created_at: inicio, concluido_em: em(9) },
      { ...nada, emitted: 1, failed: 1, ultima_final: em(8) },
    );
    expect([p.finished_at, p.estimated_seconds_left, p.counts.queued]).toEqual(['2026-11-24T12:00:09.000Z', null, 0]);
  });
});
