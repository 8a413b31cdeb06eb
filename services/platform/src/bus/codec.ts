import { type EventMetadata, type RecordedEvent } from '@frete/contracts';

/**
 * How a recorded event travels on the bus: JSON, with the bigints (revision, position) as decimal strings and the
 * recording time as an ISO-8601 string, so that `decode(encode(e))` gives back `e` field for field.
 */
export interface WireEvent {
  /** Version of this envelope. */
  v: 1;
  id: string;
  type: string;
  schemaVersion: number;
  streamId: string;
  revision: string;
  position: { commit: string; prepare: string };
  recordedAt: string;
  metadata: EventMetadata;
  data: unknown;
}

export const EVENT_TYPE_HEADER = 'event-type';
export const EVENT_ID_HEADER = 'event-id';

export function encodeEvent(event: RecordedEvent): Buffer {
  const wire: WireEvent = {
    v: 1,
    id: event.id,
    type: event.type,
    schemaVersion: event.schemaVersion,
    streamId: event.streamId,
    revision: event.revision.toString(),
    position: { commit: event.position.commit.toString(), prepare: event.position.prepare.toString() },
    recordedAt: event.recordedAt.toISOString(),
    metadata: event.metadata,
    data: event.data,
  };
  return Buffer.from(JSON.stringify(wire), 'utf8');
}

export class EventDecodeError extends Error {
  constructor(message: string) {
    super(`cannot decode event: ${message}`);
    this.name = 'EventDecodeError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const bigintField = (value: unknown, name: string): bigint => {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new EventDecodeError(`${name} is not an integer string`);
  return BigInt(value);
};

const stringField = (value: unknown, name: string): string => {
  if (typeof value !== 'string') throw new EventDecodeError(`${name} is not a string`);
  return value;
};

export function decodeEvent(bytes: Buffer | string): RecordedEvent {
  let wire: unknown;
  try {
    wire = JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch (err) {
    throw new EventDecodeError(`not JSON (${(err as Error).message})`);
  }
  if (!isRecord(wire)) throw new EventDecodeError('not an object');
  if (wire.v !== 1) throw new EventDecodeError(`unknown envelope version ${String(wire.v)}`);
  if (!isRecord(wire.position)) throw new EventDecodeError('position is missing');
  if (typeof wire.schemaVersion !== 'number') throw new EventDecodeError('schemaVersion is not a number');
  if (!isRecord(wire.metadata)) throw new EventDecodeError('metadata is missing');
  const recordedAt = new Date(stringField(wire.recordedAt, 'recordedAt'));
  if (Number.isNaN(recordedAt.getTime())) throw new EventDecodeError('recordedAt is not a date');
  return {
    id: stringField(wire.id, 'id'),
    type: stringField(wire.type, 'type'),
    schemaVersion: wire.schemaVersion,
    data: wire.data,
    metadata: wire.metadata as EventMetadata,
    streamId: stringField(wire.streamId, 'streamId'),
    revision: bigintField(wire.revision, 'revision'),
    position: {
      commit: bigintField(wire.position.commit, 'position.commit'),
      prepare: bigintField(wire.position.prepare, 'position.prepare'),
    },
    recordedAt,
  };
}
