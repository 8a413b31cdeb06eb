import { type RecordedEvent, START } from '@frete/contracts';
import { type PoolClient } from 'pg';
import { PostgresEventStore } from '@frete/platform';
import { freshDatabase, type TestDatabase } from '../support/db';
import { eventStoreConformance, eventually, eventuallyAsync, newEvent } from './event-store.suite';

eventStoreConformance('PostgreSQL', async () => {
  const db = await freshDatabase();
  const store = new PostgresEventStore(db.pool, { pollIntervalMs: 50 });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await db.drop();
    },
  };
});

describe('PostgreSQL event store: commit order', () => {
  let db: TestDatabase;
  let release: () => void = () => undefined;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await freshDatabase();
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => undefined;
    (globalThis as { slowEntered?: Promise<void> }).slowEntered = new Promise<void>((r) => (entered = r));
    store = new PostgresEventStore(db.pool, {
      pollIntervalMs: 20,
      // The "slow" stream's transaction stays open, holding a lower sequence number, while others commit.
      beforeCommit: async (_client, streamId) => {
        if (streamId.startsWith('slow-')) {
          entered();
          await held;
        }
      },
    });
  });
  afterAll(async () => {
    release();
    await store.close();
    await db.drop();
  });

  it('never skips an event whose transaction committed after a later one', async () => {
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll({ from: START, onEvent: async (e) => void seen.push(e) });
    try {
      const slow = store.append('slow-1', [newEvent('slow')], 'no_stream');
      await (globalThis as { slowEntered?: Promise<void> }).slowEntered;
      // Another company's: one company's appends chain one after another (its chain head is locked to commit).
      await store.append('fast-1', [newEvent('fast', {}, 'c-2')], 'no_stream');
      // The fast one has a higher sequence number and is committed; the slow one is still open.
      const { rows } = await db.pool.query(`SELECT stream_id FROM es_events ORDER BY global_position`);
      expect(rows.map((r) => r.stream_id)).toEqual(['fast-1']);
      await new Promise((r) => setTimeout(r, 200));
      release();
      await slow;
      await eventually(() => seen.length === 2, 'both events to be delivered');
      expect(seen.map((e) => e.type).sort()).toEqual(['fast', 'slow']);
      const slowEvent = seen.find((e) => e.type === 'slow')!;
      const fastEvent = seen.find((e) => e.type === 'fast')!;
      // A reader that followed the sequence alone would have passed the slow event's number already.
      expect(slowEvent.position.prepare).toBeLessThan(fastEvent.position.prepare);
    } finally {
      await sub.stop();
    }
  });
});

describe('PostgreSQL event store: transaction ids of different lengths', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await freshDatabase();
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 20 });
    // Each loop turn takes a transaction id and commits: a cheap way to move the cluster's ids forward.
    await db.pool.query(`CREATE PROCEDURE burn_xids(n int) LANGUAGE plpgsql AS $$
      BEGIN FOR i IN 1..n LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  // Positions order by transaction id as a number: at 999 → 1000 a text order would put the newer event first
  // (this once made a rebuild skip most of the log). The test cluster is young, so the next power of ten is near.
  it('orders the log numerically across a power of ten of transaction ids', async () => {
    await store.append('before-1', [newEvent('before')], 'no_stream');
    const { rows } = await db.pool.query<{ xid: string }>(`SELECT pg_current_xact_id()::text AS xid`);
    const xid = Number(rows[0]!.xid);
    const boundary = 10 ** String(xid).length;
    // A test cluster is young (ids in the thousands): the next power of ten is a few thousand commits away.
    await db.pool.query(`CALL burn_xids($1)`, [boundary - xid + 1]);
    await store.append('after-1', [newEvent('after')], 'no_stream');
    const [after] = await store.readStream('after-1');
    expect(String(after!.position.commit).length).toBeGreaterThan(String(xid).length);
    // Readers see only what every open transaction in the cluster has passed: wait for both, then check the order.
    let all: RecordedEvent[] = [];
    await eventuallyAsync(async () => (all = await store.readAll(START, 10)).length === 2, 'both events to be readable');
    expect(all.map((e) => e.type)).toEqual(['before', 'after']);
    expect(await store.headPosition()).toEqual(after!.position);
  });
});

describe('PostgreSQL event store: batches and one round trip per append', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await freshDatabase();
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 20 });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('hands a subscriber with onBatch what it read together, in order, and never calls onEvent then', async () => {
    for (let i = 0; i < 30; i++) await store.append(`lote-${i}`, [newEvent('a'), newEvent('b')], 'no_stream');
    const batches: RecordedEvent[][] = [];
    const single: RecordedEvent[] = [];
    const sub = store.subscribeToAll({
      from: START,
      onEvent: async (e) => void single.push(e),
      onBatch: async (events) => void batches.push(events),
    });
    try {
      await eventually(() => batches.flat().length === 60, '60 events in batches');
      expect(single).toEqual([]);
      expect(batches.length).toBeLessThan(60);
      const all = batches.flat();
      for (let i = 1; i < all.length; i++) expect(all[i]!.position.prepare).toBeGreaterThan(all[i - 1]!.position.prepare);
    } finally {
      await sub.stop();
    }
  });

  it('appends in one statement: a wrong expected revision changes nothing, and a repeat answers what was stored', async () => {
    let statements = 0;
    const query = db.pool.query.bind(db.pool);
    const counted = Object.assign(Object.create(db.pool) as typeof db.pool, {
      query: (...args: Parameters<typeof query>) => {
        statements++;
        return query(...args);
      },
    });
    const contado = new PostgresEventStore(counted, { pollIntervalMs: 20 });
    const events = [newEvent('x'), newEvent('y')];
    const first = await contado.append('uma-ida', events, 'no_stream');
    expect(statements).toBe(1);
    expect(first.nextRevision).toBe(1n);
    await expect(contado.append('uma-ida', [newEvent('z')], 0n)).rejects.toMatchObject({ name: 'WrongExpectedRevision', actual: 1n });
    await expect(contado.append('uma-ida', [newEvent('z')], 'no_stream')).rejects.toMatchObject({ actual: 1n });
    await expect(contado.append('nenhuma', [newEvent('z')], 3n)).rejects.toMatchObject({ actual: 'no_stream' });
    expect((await store.readStream('uma-ida')).map((e) => e.type)).toEqual(['x', 'y']);
    expect(await store.readStream('nenhuma')).toEqual([]);
    expect(await contado.append('uma-ida', events, 'no_stream')).toEqual(first);
    await contado.close();
  });
});

/**
 * A store that polls once an hour, so that only a notification makes it read again: `reads()` counts its reads;
 * `readAll` reads without counting.
 */
function unpolledStore(db: TestDatabase) {
  const store = new PostgresEventStore(db.pool, { pollIntervalMs: 3_600_000 });
  let n = 0;
  const readAll = store.readAll.bind(store);
  store.readAll = async (...args) => {
    const events = await readAll(...args);
    n++;
    return events;
  };
  return { store, reads: () => n, readAll };
}

describe('PostgreSQL event store: notifications after the commit', () => {
  let db: TestDatabase;
  let listener: PoolClient;
  const received: string[] = [];
  beforeAll(async () => {
    db = await freshDatabase();
    listener = await db.pool.connect();
    listener.on('notification', (n) => void received.push(n.payload ?? ''));
    await listener.query('LISTEN es_events_appended');
  });
  afterAll(async () => {
    listener.release();
    await db.drop();
  });

  it('wakes a subscriber that never polls, once its append is committed and readable', async () => {
    const { store, reads } = unpolledStore(db);
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll({ from: START, onEvent: async (e) => void seen.push(e) });
    try {
      // After its first, empty read the subscription sleeps for an hour: only the append's notification wakes it.
      await eventually(() => reads() === 1, 'the first read');
      const written = await store.append('acordado-1', [newEvent('acordado')], 'no_stream');
      await eventually(() => seen.length === 1, 'the appended event to reach the subscriber');
      expect(seen[0]!.position).toEqual(written.position);
    } finally {
      await sub.stop();
      await store.close();
    }
  });

  it('notifies once per append that wrote, and not for a repeat or a rejected append', async () => {
    const store = new PostgresEventStore(db.pool);
    received.length = 0;
    const events = [newEvent('um'), newEvent('dois')];
    await store.append('avisos-1', events, 'no_stream');
    await store.append('avisos-1', events, 'no_stream');
    await expect(store.append('avisos-1', [newEvent('tres')], 0n)).rejects.toMatchObject({ name: 'WrongExpectedRevision' });
    await store.append('avisos-2', [newEvent('quatro')], 'no_stream');
    // Notifications arrive in commit order: once this marker is in, every earlier one is.
    await db.pool.query(`SELECT pg_notify('es_events_appended', 'marca')`);
    await eventually(() => received.includes('marca'), 'the marker notification');
    expect(received).toEqual(['', '', 'marca']);
    await store.close();
  });
});

describe('PostgreSQL event store: transactions left open', () => {
  let db: TestDatabase;
  let other: TestDatabase;
  beforeAll(async () => {
    [db, other] = await Promise.all([freshDatabase(), freshDatabase()]);
    for (const d of [db, other]) await d.pool.query('CREATE TABLE IF NOT EXISTS mesa (x int)');
  });
  afterAll(async () => {
    await Promise.all([db?.drop(), other?.drop()]);
  });

  /** A transaction that has written (so holds a transaction id) and stays open until `commit` is called. */
  async function openWriter(where: TestDatabase): Promise<{ xid: bigint; commit(): Promise<void> }> {
    const client = await where.pool.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO mesa VALUES (1)');
    const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
    return {
      xid: BigInt(rows[0]!.xid),
      commit: async () => {
        await client.query('COMMIT');
        client.release();
      },
    };
  }

  it("another database's open transaction on the same server never holds this store's readers back", async () => {
    const store = new PostgresEventStore(db.pool);
    const elsewhere = await openWriter(other);
    try {
      const written = await store.append(`fora-${Date.now()}`, [newEvent('fora')], 'no_stream');
      // The open transaction is older than the append, and below the cluster's oldest running id.
      expect(written.position.commit).toBeGreaterThan(elsewhere.xid);
      const { rows } = await db.pool.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
      expect(BigInt(rows[0]!.xmin)).toBeLessThanOrEqual(elsewhere.xid);
      const read = await store.readAll(START, 100);
      expect(read.map((e) => e.position)).toContainEqual(written.position);
    } finally {
      await elsewhere.commit();
      await store.close();
    }
  });

  it("this database's older open transaction holds readers back until it ends, and a woken subscriber then looks again soon", async () => {
    const { store, reads, readAll } = unpolledStore(db);
    const from = await store.headPosition();
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll({ from, onEvent: async (e) => void seen.push(e) });
    const here = await openWriter(db);
    try {
      await eventually(() => reads() >= 1, 'the first read');
      await store.append(`retido-${Date.now()}`, [newEvent('retido')], 'no_stream');
      // Its notification wakes the subscriber, whose read finds nothing yet: the older transaction may still append.
      await eventually(() => reads() >= 2, 'the woken read');
      expect(await readAll(from, 100)).toEqual([]);
      expect(seen).toEqual([]);
      await new Promise((r) => setTimeout(r, 40));
      await here.commit();
      // No notification comes now, and the next poll is an hour away: only the retries after the empty wake see it.
      await eventually(() => seen.length === 1, 'the held-back event', 5_000);
      expect(seen[0]!.type).toBe('retido');
    } finally {
      await sub.stop();
      await store.close();
    }
  });
});
