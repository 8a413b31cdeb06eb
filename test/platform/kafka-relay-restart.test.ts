import { comparePositions } from '@frete/contracts';
import { EVENT_ID_HEADER, type Kafka, KafkaRelay, SubscriptionCheckpoints } from '@frete/platform';
import { withEventStore } from '../support/store';
import { eventually, eventuallyAsync, newEvent } from '../conformance/event-store.suite';

/**
 * A stand-in for the broker, enough for the relay: topics are created, and each producer's sends go through a
 * function the test controls. It counts the producers the relay made, to see it reconnect after a failure.
 */
function standInKafka(send: (eventId: string) => Promise<void>) {
  const made = { producers: 0, disconnected: 0 };
  const kafka = {
    admin: () => ({
      connect: async () => undefined,
      listTopics: async () => [],
      createTopics: async () => true,
      disconnect: async () => undefined,
    }),
    producer: () => {
      made.producers++;
      return {
        connect: async () => undefined,
        disconnect: async () => void made.disconnected++,
        send: async (record: { messages: { headers: Record<string, string> }[] }) => {
          for (const m of record.messages) await send(m.headers[EVENT_ID_HEADER]!);
        },
      };
    },
  } as unknown as Kafka;
  return { kafka, made };
}

describe('KafkaRelay: starting again after a failure (stand-in broker)', () => {
  const fixture = withEventStore();

  it('reports the failure, and after its pause reconnects and resumes from its checkpoint, losing nothing', async () => {
    const { db, store } = fixture;
    const sent: string[] = [];
    let failOnce = true;
    const { kafka, made } = standInKafka(async (id) => {
      if (failOnce && sent.length === 1) {
        failOnce = false;
        throw new Error('broker went away');
      }
      sent.push(id);
    });
    const errors: unknown[] = [];
    const relay = new KafkaRelay(store, db.pool, kafka, {
      topic: 't',
      checkpointName: 'relay:restart',
      onError: (e) => errors.push(e),
      retryDelayMs: 20,
    });
    await relay.start();
    try {
      await store.append('r-1', [newEvent('a'), newEvent('b'), newEvent('c')], 'no_stream');
      await eventually(() => new Set(sent).size === 3, 'the three events after the restart');
      expect(errors).toHaveLength(1);
      expect(made.producers).toBe(2);
      // The three were read together and sent as one request; it failed after the first, so the request is sent
      // again from the checkpoint, the first event included (at-least-once: consumers are idempotent).
      const stored = await store.readStream('r-1');
      expect(sent).toEqual([stored[0]!.id, ...stored.map((e) => e.id)]);
      const last = stored[2]!.position;
      const checkpoints = new SubscriptionCheckpoints(db.pool);
      await eventuallyAsync(
        async () => comparePositions(await checkpoints.get('relay:restart'), last) === 0,
        'the checkpoint at the last event',
      );
    } finally {
      await relay.stop();
    }
    expect(made.disconnected).toBe(2);
  });

  it('stopped while it waits to start again: stop() returns at once and nothing restarts', async () => {
    const { db, store } = fixture;
    const { kafka, made } = standInKafka(async () => {
      throw new Error('broker went away');
    });
    const errors: unknown[] = [];
    const relay = new KafkaRelay(store, db.pool, kafka, {
      topic: 't',
      checkpointName: 'relay:stop',
      onError: (e) => errors.push(e),
      retryDelayMs: 60_000,
    });
    await relay.start();
    await store.append('r-2', [newEvent('a')], 'no_stream');
    await eventually(() => errors.length === 1, 'the failure reported');
    const started = Date.now();
    await relay.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(made.producers).toBe(1);
  });
});
