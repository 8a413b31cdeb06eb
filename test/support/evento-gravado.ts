import { type RecordedEvent } from '@frete/contracts';

/** A recorded event of the n-th position of the log, of a stream, for tests of what consumes the log. */
export const eventoGravado = (n: number, streamId: string, type = 'test.pinged'): RecordedEvent => ({
  id: `e${n}`,
  type,
  schemaVersion: 1,
  data: {},
  metadata: { company_id: null, correlation_id: 'c', causation_id: null, request_id: null, actor: 'test' },
  streamId,
  revision: 0n,
  position: { commit: BigInt(n), prepare: BigInt(n) },
  recordedAt: new Date(0),
});
