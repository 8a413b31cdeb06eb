import { type LoteProgresso } from '@frete/contracts';
import { type LoteRow } from './queries';

/** A batch's rows counted by status, and when the last of its final rows (emitted, duplicated, failed) was written. */
export interface ContagemLote {
  pending: number;
  emitted: number;
  duplicated: number;
  failed: number;
  ultima_final: Date | null;
}

/**
 * A batch's progress as its report shows it, from the read model alone (so two reads of one state answer the same).
 * Whether the batch is finished is its decider's (`lote.concluido`, here `concluido_em`); this only counts and
 * extrapolates: the mean time per final row so far (last final row's time − start) times the rows left.
 */
export function progressoDeContagem(lote: Pick<LoteRow, 'total_linhas' | 'created_at' | 'concluido_em'>, c: ContagemLote): LoteProgresso {
  const processed = c.pending + c.emitted + c.duplicated + c.failed;
  const completed = c.emitted + c.duplicated + c.failed;
  let estimated: number | null = null;
  if (!lote.concluido_em && completed > 0 && c.ultima_final) {
    const porLinha = Math.max(0, c.ultima_final.getTime() - lote.created_at.getTime()) / completed;
    estimated = Math.ceil((porLinha * Math.max(0, lote.total_linhas - completed)) / 1000);
  }
  return {
    total: lote.total_linhas,
    processed,
    completed,
    counts: {
      queued: Math.max(0, lote.total_linhas - processed),
      pending: c.pending,
      emitted: c.emitted,
      duplicated: c.duplicated,
      failed: c.failed,
    },
    started_at: lote.created_at.toISOString(),
    finished_at: lote.concluido_em?.toISOString() ?? null,
    estimated_seconds_left: estimated,
  };
}
