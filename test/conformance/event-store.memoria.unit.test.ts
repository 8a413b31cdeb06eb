import { START } from '@frete/contracts';
import { MemoryEventStore, WrongExpectedRevision } from '@frete/platform';
import { eventStoreConformance, eventually, newEvent } from './event-store.suite';

// The middle tier's store (issue 31 point 4) shows the port's behaviour as the PostgreSQL and EventStoreDB adapters do.
eventStoreConformance('in memory', async () => {
  const store = new MemoryEventStore();
  return { store, cleanup: () => store.close() };
});

describe('in-memory event store: what the suite does not ask', () => {
  it('hands a subscriber with onBatch what it reads together, counts what lies after a position, and stops', async () => {
    const store = new MemoryEventStore();
    for (let i = 0; i < 3; i++) await store.append(`s-${i}`, [newEvent('a'), newEvent('b')], 'no_stream');
    const batches: string[][] = [];
    const sub = store.subscribeToAll({
      from: START,
      onEvent: () => Promise.reject(new Error('onBatch was given')),
      onBatch: async (events) => void batches.push(events.map((e) => e.streamId)),
    });
    await eventually(() => batches.flat().length === 6, 'six events');
    expect(await store.countAfter(START, 4)).toBe(4);
    expect(await store.countAfter(await store.headPosition(), 10)).toBe(0);
    await sub.stop();
    await sub.done;
    await store.close();
  });

  it('keeps what it logged apart from what callers hold: changing an appended or read event changes nothing stored', async () => {
    const store = new MemoryEventStore();
    const e = newEvent('x', { valor: 1 });
    await store.append('copias', [e], 'no_stream');
    (e.data as { valor: number }).valor = 2;
    const [lido] = await store.readStream('copias');
    (lido!.data as { valor: number }).valor = 3;
    expect((await store.readStream('copias'))[0]!.data).toEqual({ valor: 1 });
  });

  it('refuses an id already written to another stream, as the database would', async () => {
    const store = new MemoryEventStore();
    const e = newEvent('x');
    await store.append('um', [e], 'no_stream');
    await expect(store.append('outro', [e], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect(await store.readStream('outro')).toEqual([]);
  });
});
