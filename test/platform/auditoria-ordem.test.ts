import { LeitorDeAuditoria, PostgresEventStore } from '@frete/platform';
import { freshDatabase, type TestDatabase } from '../support/db';
import { newEvent } from '../conformance/event-store.suite';

describe("a resource's history is in commit order, numerically", () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await freshDatabase();
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 50 });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('orders by the transaction id as a number across a digit boundary (9, 10, 100), not as the text it is read as', async () => {
    for (const i of [1, 2, 3]) await store.append('historia-1', [newEvent('teste.registrado', { i }, null)], 'any');
    // The ids a cluster gives as it crosses 10 and 100 (a busy one crosses them all): read as text, "10" < "100" < "9".
    await db.pool.query(
      `UPDATE es_events SET transaction_id = (ARRAY['9', '10', '100'])[(data->>'i')::int]::xid8 WHERE stream_id = 'historia-1'`,
    );
    const eventos = await new LeitorDeAuditoria(db.pool).dosStreams(['historia-1']);
    expect(eventos.map((e) => (e.data as { i: number }).i)).toEqual([1, 2, 3]);
  });
});
