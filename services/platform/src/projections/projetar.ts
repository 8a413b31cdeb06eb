import { type Position, type RecordedEvent, comparePositions } from '@frete/contracts';
import { type ProjectedEvent, type Projector, type Sql, asProjected } from '@frete/projections';

/** The projectors of a runner, split by how they take a batch (see Projector.applyBatch). */
export interface Projetores {
  porEvento: Projector[];
  porLote: Projector[];
}

export const separarProjetores = (projectors: Projector[]): Projetores => ({
  porEvento: projectors.filter((p) => !p.applyBatch),
  porLote: projectors.filter((p) => p.applyBatch),
});

export interface Projecao {
  /** The position of the last event taken (the checkpoint to record). */
  checkpoint: Position;
  /** Events after the starting checkpoint, catalogued or not. */
  applied: number;
  /** The aggregates of those events (the event type's prefix). */
  aggregates: Set<string>;
}

/**
 * Applies the projectors to the events after `desde`, inside the caller's transaction. The live runner and the
 * verifier's replay share it, so that a verified replay is exactly what the runner does.
 */
export async function projetar(sql: Sql, projetores: Projetores, events: RecordedEvent[], desde: Position): Promise<Projecao> {
  let checkpoint = desde;
  const novos: ProjectedEvent[] = [];
  let applied = 0;
  const aggregates = new Set<string>();
  for (const event of events) {
    if (comparePositions(event.position, checkpoint) <= 0) continue;
    const projected = asProjected(event);
    if (projected) {
      for (const projector of projetores.porEvento) await projector.apply(sql, projected);
      novos.push(projected);
    }
    checkpoint = event.position;
    aggregates.add(event.type.split('.')[0]!);
    applied++;
  }
  if (novos.length > 0) for (const projector of projetores.porLote) await projector.applyBatch!(sql, novos);
  return { checkpoint, applied, aggregates };
}
