import { type RecordedEvent } from '@frete/contracts';
import { type EventStore, derivedEventId, type Processor } from '@frete/platform';

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

/**
 * A processor `name` of the events of `type` that pongs each, holding its first delivery of an event until `release()`:
 * for a stop with a handler in flight. `handling` resolves once one is held; `calls` counts deliveries by event id.
 */
export function processadorRetido(store: EventStore, name: string, type: string) {
  const calls = new Map<string, number>();
  let started: () => void = () => undefined;
  const handling = new Promise<void>((r) => (started = r));
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => (release = r));
  const processor: Processor = {
    name,
    handles: (t) => t === type,
    handle: async (event: RecordedEvent) => {
      calls.set(event.id, (calls.get(event.id) ?? 0) + 1);
      if (calls.get(event.id) === 1) {
        started();
        await released;
      }
      await appendPong(store, event, name);
    },
  };
  return { processor, calls, handling, release: () => release() };
}
