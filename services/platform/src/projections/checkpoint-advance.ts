import { type Position } from '@frete/contracts';

/** Where the checkpoint of every runner's batch is announced, on commit, to every process that listens. */
export const CHECKPOINT_CHANNEL = 'rm_checkpoint';

/**
 * A committed batch of a projection runner: its new checkpoint and the aggregates its events belong to (the event
 * type's prefix: `credential` of `credential.revoked`), so that what a process keeps in memory from the read models
 * knows when to forget it.
 */
export interface CheckpointAdvance {
  name: string;
  position: Position;
  aggregates: string[];
}

interface Payload {
  name: string;
  commit: string;
  prepare: string;
  aggregates: string[];
}

/** The notification's payload: positions as decimal strings (they are bigints), well under PostgreSQL's 8000 bytes. */
export const encodeCheckpointAdvance = (a: CheckpointAdvance): string =>
  JSON.stringify({ name: a.name, commit: a.position.commit.toString(), prepare: a.position.prepare.toString(), aggregates: a.aggregates });

/** Null for a payload this code did not write (whoever sends on the channel by hand). */
export function decodeCheckpointAdvance(payload: string): CheckpointAdvance | null {
  try {
    const p = JSON.parse(payload) as Payload;
    if (typeof p.name !== 'string' || !Array.isArray(p.aggregates)) return null;
    return { name: p.name, position: { commit: BigInt(p.commit), prepare: BigInt(p.prepare) }, aggregates: p.aggregates.map(String) };
  } catch {
    return null;
  }
}
