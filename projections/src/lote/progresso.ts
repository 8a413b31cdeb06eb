import { type LoteProgresso } from '@frete/contracts';
import { type LoteLinhaRow, type LoteRow } from './queries';

const FINAIS: ReadonlySet<string> = new Set(['emitted', 'duplicated', 'failed']);

/**
 * A batch's progress as its report shows it, from the read model alone (so two reads of one state answer the same).
 * Whether the batch is finished is its decider's (`lote.concluido`, here `concluido_em`); this only counts and
 * extrapolates: the mean time per final row so far (last final row's time − start) times the rows left.
 */
export function progressoDoLote(
  lote: Pick<LoteRow, 'total_linhas' | 'created_at' | 'concluido_em'>,
  linhas: Pick<LoteLinhaRow, 'status' | 'updated_at'>[],
): LoteProgresso {
  const counts = { queued: 0, pending: 0, emitted: 0, duplicated: 0, failed: 0 };
  let ultimaFinal = 0;
  for (const l of linhas) {
    counts[l.status]++;
    if (FINAIS.has(l.status)) ultimaFinal = Math.max(ultimaFinal, l.updated_at.getTime());
  }
  counts.queued = Math.max(0, lote.total_linhas - linhas.length);
  const completed = counts.emitted + counts.duplicated + counts.failed;
  let estimated: number | null = null;
  if (!lote.concluido_em && completed > 0) {
    const porLinha = Math.max(0, ultimaFinal - lote.created_at.getTime()) / completed;
    estimated = Math.ceil((porLinha * Math.max(0, lote.total_linhas - completed)) / 1000);
  }
  return {
    total: lote.total_linhas,
    processed: linhas.length,
    completed,
    counts,
    started_at: lote.created_at.toISOString(),
    finished_at: lote.concluido_em?.toISOString() ?? null,
    estimated_seconds_left: estimated,
  };
}
