import { randomUUID } from 'node:crypto';
import { type NewEvent, type RecordedEvent, START, comparePositions } from '@frete/contracts';
import { type EventStore, WrongExpectedRevision } from '@frete/platform';

export interface EventStoreUnderTest {
  store: EventStore;
  cleanup(): Promise<void>;
}

const meta = (companyId: string | null = 'c-1') => ({
  company_id: companyId,
  correlation_id: randomUUID(),
  causation_id: null,
  request_id: 'req-1',
  actor: 'test',
});

export const newEvent = (type: string, data: unknown = {}, companyId: string | null = 'c-1'): NewEvent => ({
  id: randomUUID(),
  type,
  schemaVersion: 1,
  data,
  metadata: meta(companyId),
});

/** Waits until the async `predicate` holds, polling; fails with `what` after the deadline. */
export async function eventuallyAsync(predicate: () => Promise<boolean>, what: string, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until `predicate` holds, polling; fails with `what` after the deadline. */
export async function eventually(predicate: () => boolean, what: string, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The behaviour every adapter of the event-store port must show. Stream names are unique per test so that the
 * suite can run against a shared EventStoreDB as well as a fresh PostgreSQL database.
 */
export function eventStoreConformance(name: string, open: () => Promise<EventStoreUnderTest>): void {
  describe(`event store conformance: ${name}`, () => {
    let sut: EventStoreUnderTest;
    let store: EventStore;
    const stream = (prefix: string) => `${prefix}-${randomUUID()}`;
    const mine = (events: RecordedEvent[], s: string | string[]) =>
      events.filter((e) => (Array.isArray(s) ? s.includes(e.streamId) : e.streamId === s));

    beforeAll(async () => {
      sut = await open();
      store = sut.store;
    });
    afterAll(async () => {
      await sut?.cleanup();
    });

    it('appends to a new stream and reads it back with every field', async () => {
      const s = stream('order');
      const events = [newEvent('thing.created', { a: 1, nested: { b: 'x' } }), newEvent('thing.changed', { a: 2 })];
      const result = await store.append(s, events, 'no_stream');
      expect(result.nextRevision).toBe(1n);
      const read = await store.readStream(s);
      expect(read.map((e) => [e.id, e.type, e.revision, e.schemaVersion, e.data])).toEqual([
        [events[0]!.id, 'thing.created', 0n, 1, { a: 1, nested: { b: 'x' } }],
        [events[1]!.id, 'thing.changed', 1n, 1, { a: 2 }],
      ]);
      expect(read[0]!.metadata).toEqual(events[0]!.metadata);
      expect(read[0]!.streamId).toBe(s);
      expect(read[1]!.recordedAt).toBeInstanceOf(Date);
      expect(comparePositions(read[1]!.position, result.position)).toBe(0);
      expect(comparePositions(read[0]!.position, read[1]!.position)).toBeLessThan(0);
    });

    it('reads a stream that does not exist as empty', async () => {
      expect(await store.readStream(stream('missing'))).toEqual([]);
      expect(await store.readStream(stream('missing'), 3n)).toEqual([]);
    });

    it('reads only the events after a revision (a reader that folded up to it)', async () => {
      const s = stream('after');
      await store.append(s, [newEvent('a'), newEvent('b'), newEvent('c')], 'no_stream');
      expect((await store.readStream(s, 0n)).map((e) => [e.type, e.revision])).toEqual([
        ['b', 1n],
        ['c', 2n],
      ]);
      expect(await store.readStream(s, 2n)).toEqual([]);
      expect(await store.readStream(s, 9n)).toEqual([]);
      expect((await store.readStream(s, -1n)).map((e) => e.type)).toEqual(['a', 'b', 'c']);
    });

    it('refuses no_stream on an existing stream', async () => {
      const s = stream('dup');
      await store.append(s, [newEvent('a')], 'no_stream');
      await expect(store.append(s, [newEvent('b')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(s)).toHaveLength(1);
    });

    it('appends at the exact revision and refuses a stale one', async () => {
      const s = stream('exact');
      await store.append(s, [newEvent('a'), newEvent('b')], 'no_stream');
      await store.append(s, [newEvent('c')], 1n);
      await expect(store.append(s, [newEvent('d')], 1n)).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(store.append(stream('none'), [newEvent('d')], 0n)).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect((await store.readStream(s)).map((e) => e.type)).toEqual(['a', 'b', 'c']);
    });

    it('appends with any, to new and existing streams', async () => {
      const s = stream('any');
      await store.append(s, [newEvent('a')], 'any');
      const r = await store.append(s, [newEvent('b')], 'any');
      expect(r.nextRevision).toBe(1n);
    });

    it('treats a repeated append of the same event ids as done, writing nothing', async () => {
      const s = stream('idem');
      const events = [newEvent('a'), newEvent('b')];
      const first = await store.append(s, events, 'no_stream');
      const again = await store.append(s, events, 'no_stream');
      expect(again.nextRevision).toBe(first.nextRevision);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('lets exactly one of many concurrent appends at one revision win', async () => {
      const s = stream('race');
      await store.append(s, [newEvent('start')], 'no_stream');
      const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.append(s, [newEvent(`attempt-${i}`)], 0n)));
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(7);
      for (const l of lost) expect((l as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('lets exactly one of concurrent creations of a stream win', async () => {
      const s = stream('create-race');
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => store.append(s, [newEvent(`create-${i}`)], 'no_stream')),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(s)).toHaveLength(1);
    });

    it('reads all in order from a position, exclusive', async () => {
      const a = stream('all-a');
      const b = stream('all-b');
      await store.append(a, [newEvent('a1')], 'no_stream');
      const mid = await store.append(b, [newEvent('b1')], 'no_stream');
      const last = await store.append(a, [newEvent('a2')], 0n);
      // Page until our last append is read: another client's open transaction may hold it back for a moment.
      const everything: RecordedEvent[] = [];
      let from = START;
      await eventuallyAsync(async () => {
        for (let page = await store.readAll(from, 100); page.length > 0; page = await store.readAll(from, 100)) {
          everything.push(...page);
          from = page[page.length - 1]!.position;
        }
        return comparePositions(from, last.position) >= 0;
      }, 'readAll to reach the last append');
      expect(mine(everything, [a, b]).map((e) => e.type)).toEqual(['a1', 'b1', 'a2']);
      for (let i = 1; i < everything.length; i++) {
        expect(comparePositions(everything[i - 1]!.position, everything[i]!.position)).toBeLessThan(0);
      }
      const after = await store.readAll(mid.position, 1000);
      expect(mine(after, [a, b]).map((e) => e.type)).toEqual(['a2']);
    });

    it('catches up from a checkpoint and then follows live appends', async () => {
      const s = stream('sub');
      await store.append(s, [newEvent('before-1'), newEvent('before-2')], 'no_stream');
      const first = (await store.readStream(s))[0]!;
      const seen: RecordedEvent[] = [];
      const sub = store.subscribeToAll({ from: first.position, onEvent: async (e) => void seen.push(e) });
      try {
        await store.append(s, [newEvent('live-1')], 1n);
        await store.append(s, [newEvent('live-2')], 2n);
        await eventually(() => mine(seen, s).length >= 3, 'subscription to deliver three events');
        expect(mine(seen, s).map((e) => e.type)).toEqual(['before-2', 'live-1', 'live-2']);
      } finally {
        await sub.stop();
      }
    });

    it('reports the head position of the log', async () => {
      const s = stream('head');
      const r = await store.append(s, [newEvent('x')], 'no_stream');
      expect(comparePositions(await store.headPosition(), r.position)).toBeGreaterThanOrEqual(0);
    });
  });
}
