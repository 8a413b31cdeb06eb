import { type DomainEvent, type RecordedEvent, isEventType } from '@frete/contracts';

/** Anything that runs SQL: a pool client inside the runner's transaction. */
export interface Sql {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

/** A recorded event narrowed to the catalogue, so that `event.data` is typed by `event.type`. */
export type ProjectedEvent = Omit<RecordedEvent, 'type' | 'data'> & DomainEvent;

export const asProjected = (e: RecordedEvent): ProjectedEvent | null => (isEventType(e.type) ? (e as unknown as ProjectedEvent) : null);

/**
 * Event → SQL on read-model tables. Runs inside the runner's transaction, together with the checkpoint, so it
 * must not commit and must take its timestamps from the event (a rebuild must give the same rows).
 */
export interface Projector {
  name: string;
  tables: string[];
  apply(sql: Sql, event: ProjectedEvent): Promise<void>;
  /**
   * The runner's batch at once, in order, instead of `apply` per event: for a projector whose rows sum over many events
   * (one statement for the batch). Runs after the per-event projectors of the same batch, in the same transaction; it
   * must give the rows `apply` would, and no other projector may read its tables.
   */
  applyBatch?(sql: Sql, events: ProjectedEvent[]): Promise<void>;
}
