import { type RecordedEvent } from '@frete/contracts';
import { DirectTransport, type Processor, SubscriptionCheckpoints, derivedEventId } from '@frete/platform';
import { appendPong, processadorRetido } from '../support/pong';
import { withEventStore } from '../support/store';
import { eventually, newEvent } from '../conformance/event-store.suite';

describe('DirectTransport', () => {
  const fixture = withEventStore(50);

  it('redelivers an event after a crash between handling and checkpoint, with no second effect', async () => {
    const { db, store } = fixture;
    const calls = new Map<string, number>();
    let crashOn: string | null = null;
    const processor: Processor = {
      name: 'pong-direct',
      handles: (type) => type === 'test.pinged',
      handle: async (ping: RecordedEvent) => {
        calls.set(ping.id, (calls.get(ping.id) ?? 0) + 1);
        await appendPong(store, ping, 'pong-direct');
        if (ping.id === crashOn) {
          crashOn = null;
          // Acted, and dies before the transport moves the checkpoint.
          throw new Error('simulated crash after acting');
        }
      },
    };

    const pings = [newEvent('test.pinged'), newEvent('test.pinged'), newEvent('test.pinged')];
    await store.append('ping-1', [pings[0]!], 'no_stream');
    await store.append('ping-2', [pings[1]!, newEvent('test.other')], 'no_stream');
    await store.append('ping-3', [pings[2]!], 'no_stream');
    crashOn = pings[1]!.id;

    const first = new DirectTransport(store, db.pool, { concurrency: 1 });
    await first.start(processor);
    await eventually(() => calls.get(pings[1]!.id) === 1 && crashOn === null, 'the crash on the second ping');
    await first.stop();
    // The effect happened; the checkpoint stands at the first ping, before the one that crashed.
    expect(await store.readStream('pong-ping-2')).toHaveLength(1);
    const checkpoints = new SubscriptionCheckpoints(db.pool);
    const [firstPing] = await store.readStream('ping-1');
    expect(await checkpoints.get('processor:pong-direct')).toEqual(firstPing!.position);
    expect(calls.get(pings[2]!.id)).toBeUndefined();

    const second = new DirectTransport(store, db.pool, { concurrency: 1 });
    await second.start(processor);
    try {
      await eventually(() => calls.get(pings[2]!.id) === 1, 'the third ping');
    } finally {
      await second.stop();
    }

    expect(pings.map((p) => calls.get(p.id))).toEqual([1, 2, 1]);
    for (const [i, ping] of pings.entries()) {
      const pongs = await store.readStream(`pong-ping-${i + 1}`);
      expect(pongs.map((e) => e.id)).toEqual([derivedEventId(ping.id, 'pong')]);
    }
  });
  it('a stop waits for the handler in flight, which records its effect, and saves its checkpoint: the restart does not get it again', async () => {
    // Issue 17, point 5: SIGTERM drains the deliveries in flight on the embedded default too.
    const { db, store } = fixture;
    const { processor, calls, handling, release } = processadorRetido(store, 'drain-direct', 'test.drained');
    const event = newEvent('test.drained');
    await store.append('drain-1', [event], 'no_stream');

    const first = new DirectTransport(store, db.pool, { concurrency: 4 });
    await first.start(processor);
    await handling;
    const stopping = first.stop();
    release();
    await stopping;
    expect(await store.readStream('pong-drain-1')).toHaveLength(1);
    const [recorded] = await store.readStream('drain-1');
    expect(await new SubscriptionCheckpoints(db.pool).get('processor:drain-direct')).toEqual(recorded!.position);

    const later = newEvent('test.drained');
    await store.append('drain-2', [later], 'no_stream');
    const second = new DirectTransport(store, db.pool, { concurrency: 4 });
    await second.start(processor);
    try {
      await eventually(() => calls.get(later.id) === 1, 'the later event');
    } finally {
      await second.stop();
    }
    expect(calls.get(event.id)).toBe(1);
  });
});
