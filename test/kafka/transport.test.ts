import { randomUUID } from 'node:crypto';
import { type RecordedEvent } from '@frete/contracts';
import {
  type Kafka,
  KafkaRelay,
  KafkaTransport,
  type KafkaTransportOptions,
  PostgresEventStore,
  type Processor,
  consumerGroupOf,
  createKafka,
  derivedEventId,
} from '@frete/platform';
import { freshDatabase, type TestDatabase } from '../support/db';
import { appendPong, processadorRetido } from '../support/pong';
import { describeKafka } from '../support/kafka';
import { newEvent } from '../conformance/event-store.suite';

/** Waits until the async `predicate` holds, polling; fails with `what` after the deadline. */
async function until(predicate: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms).unref())]);

describeKafka('Kafka transport (real broker): store → relay → Kafka → processor → store', (brokers) => {
  jest.setTimeout(60_000);
  let db: TestDatabase;
  let store: PostgresEventStore;
  let kafka: Kafka;
  let relay: KafkaRelay;
  const topic = `test-transport-${randomUUID()}`;
  // Quick group joins and fetches for a test; a real deployment keeps kafkajs' defaults.
  const transportOptions: KafkaTransportOptions = {
    topic,
    consumer: { sessionTimeout: 6000, rebalanceTimeout: 5000, heartbeatInterval: 300, maxWaitTimeInMs: 100 },
  };

  beforeAll(async () => {
    db = await freshDatabase();
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 50 });
    kafka = createKafka({ brokers, clientId: 'transport-test', logLevel: 'nothing' });
    relay = new KafkaRelay(store, db.pool, kafka, { topic });
    await relay.start();
  });
  afterAll(async () => {
    await relay?.stop();
    await store?.close();
    await db?.drop();
  });

  /** For every `test.pinged`, appends one `test.ponged` to `pong-<stream>`, its id derived from the ping's. */
  const pongProcessor = (name: string): Processor => ({
    name,
    handles: (type) => type === 'test.pinged',
    handle: async (ping: RecordedEvent) => {
      await appendPong(store, ping, name);
    },
  });

  /** True once the group has committed, on every partition, everything the topic holds. */
  async function allCommitted(groupId: string): Promise<boolean> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const ends = await admin.fetchTopicOffsets(topic);
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return ends.every((end) => {
        const c = committed!.partitions.find((p) => p.partition === end.partition);
        return end.high === '0' || c?.offset === end.high;
      });
    } finally {
      await admin.disconnect();
    }
  }

  it('redelivers a message whose consumer stopped after acting but before committing, with no second effect', async () => {
    const name = `pong-${randomUUID().slice(0, 8)}`;
    const inner = pongProcessor(name);
    const calls = new Map<string, number>();
    let handled = 0;
    let victim: RecordedEvent | null = null;
    let acted: () => void = () => undefined;
    const actedOnVictim = new Promise<void>((r) => (acted = r));
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));

    // The third ping handled is the victim: the processor acts (appends the pong), then the consumer is stopped
    // while the handler is still running, so the offset commit that would follow never happens.
    const processor: Processor = {
      name,
      handles: (type) => inner.handles(type),
      handle: async (event) => {
        calls.set(event.id, (calls.get(event.id) ?? 0) + 1);
        await inner.handle(event);
        handled += 1;
        if (handled === 3 && !victim) {
          victim = event;
          acted();
          await released;
          throw new Error('simulated crash: acted, not yet committed');
        }
      },
    };

    const pings: RecordedEvent[] = [];
    for (let i = 0; i < 6; i++) {
      const s = `ping-${i}-${randomUUID()}`;
      await store.append(s, [newEvent('test.other'), newEvent('test.pinged', { i })], 'no_stream');
      pings.push((await store.readStream(s))[1]!);
    }

    // One message at a time: with several in flight, those handled after the victim are delivered again too
    // (at-least-once, the prefix rule), and this test counts exactly one delivery for each of them.
    const first = new KafkaTransport(kafka, { ...transportOptions, concurrency: 1 });
    await first.start(processor);
    await withTimeout(actedOnVictim, 30_000, 'the processor to act on the third ping');
    const v = victim as RecordedEvent | null;
    expect(v).not.toBeNull();
    // The effect is there; the offset is not committed.
    expect(await store.readStream(`pong-${v!.streamId}`)).toHaveLength(1);
    const stopping = first.stop();
    release();
    await stopping;
    expect(calls.get(v!.id)).toBe(1);

    // Restart: a new consumer of the same group gets the uncommitted message again.
    const second = new KafkaTransport(kafka, { ...transportOptions, concurrency: 1 });
    await second.start(processor);
    try {
      await until(async () => pings.every((p) => calls.has(p.id)) && calls.get(v!.id) === 2, 'every ping handled, the victim twice');
      // Everything on the topic (pongs and other events included, which it skips) gets committed.
      await until(() => allCommitted(consumerGroupOf(topic, name)), 'the group to commit everything on the topic');
    } finally {
      await second.stop();
    }

    // Delivered twice, acted on twice, one effect: exactly one pong per ping, with the derived id.
    expect(calls.get(v!.id)).toBe(2);
    for (const ping of pings.filter((p) => p.id !== v!.id)) expect(calls.get(ping.id)).toBe(1);
    for (const ping of pings) {
      const pongs = await store.readStream(`pong-${ping.streamId}`);
      expect(pongs.map((e) => [e.type, e.id, e.data])).toEqual([['test.ponged', derivedEventId(ping.id, 'pong'), { ping: ping.id }]]);
    }
    // Events the processor does not handle never reached it.
    expect([...calls.keys()].sort()).toEqual(pings.map((p) => p.id).sort());
  });
  it('a stop waits for the handler in flight, which records its effect, and commits its offset: the restart does not get it again', async () => {
    // Issue 17, point 5: SIGTERM drains deliveries and commits their offsets (kafkajs' consumer.commitOffsets commits
    // nothing once the consumer is stopping: the message was delivered again after every restart).
    const name = `drain-${randomUUID().slice(0, 8)}`;
    const type = `test.drain-${randomUUID().slice(0, 8)}`;
    const { processor, calls, handling, release } = processadorRetido(store, name, type);
    const stream = `drain-${randomUUID()}`;
    await store.append(stream, [newEvent(type)], 'no_stream');
    const [event] = await store.readStream(stream);

    const first = new KafkaTransport(kafka, { ...transportOptions, concurrency: 1 });
    await first.start(processor);
    await withTimeout(handling, 30_000, 'the handler to start');
    const stopping = first.stop();
    release();
    await stopping;
    // The handler in flight finished before the stop did.
    expect(await store.readStream(`pong-${stream}`)).toHaveLength(1);

    const second = new KafkaTransport(kafka, { ...transportOptions, concurrency: 1 });
    await second.start(processor);
    try {
      await until(() => allCommitted(consumerGroupOf(topic, name)), 'the group to commit everything on the topic');
    } finally {
      await second.stop();
    }
    expect(calls.get(event!.id)).toBe(1);
  });
});
