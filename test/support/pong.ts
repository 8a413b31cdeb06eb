import { type RecordedEvent } from '@frete/contracts';
import { type EventStore, derivedEventId } from '@frete/platform';

/** The test processors' one effect: a `test.ponged` in `pong-<stream>`, its id derived from the ping's (idempotent). */
export function appendPong(store: EventStore, ping: RecordedEvent, processorName: string) {
  return store.append(
    `pong-${ping.streamId}`,
    [
      {
        id: derivedEventId(ping.id, 'pong'),
        type: 'test.ponged',
        schemaVersion: 1,
        data: { ping: ping.id },
        metadata: { ...ping.metadata, causation_id: ping.id, actor: `processor:${processorName}` },
      },
    ],
    'any',
  );
}
