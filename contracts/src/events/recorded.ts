import { type EventMetadata } from './metadata';

/**
 * A position in the global log. PostgreSQL: (writing transaction id, sequence); EventStoreDB: (commit, prepare).
 * Both order lexicographically, and both are exclusive when used as a starting point.
 */
export interface Position {
  commit: bigint;
  prepare: bigint;
}

export const START: Position = { commit: 0n, prepare: 0n };

export const comparePositions = (a: Position, b: Position): number =>
  a.commit === b.commit ? (a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1) : a.commit < b.commit ? -1 : 1;

export interface NewEvent {
  id: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  streamId: string;
  /** 0-based revision of the event in its stream. */
  revision: bigint;
  position: Position;
  recordedAt: Date;
}
