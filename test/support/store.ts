import { type CommandContext } from '@frete/application';
import { PostgresEventStore } from '@frete/platform';
import { freshDatabase, type TestDatabase } from './db';

/** A fresh database and a PostgreSQL event store on it for the test file, closed and dropped after it. */
export function withEventStore(pollIntervalMs = 20): { db: TestDatabase; store: PostgresEventStore } {
  const ctx = {} as { db: TestDatabase; store: PostgresEventStore };
  beforeAll(async () => {
    ctx.db = await freshDatabase();
    ctx.store = new PostgresEventStore(ctx.db.pool, { pollIntervalMs });
  });
  afterAll(async () => {
    await ctx.store?.close();
    await ctx.db?.drop();
  });
  return ctx;
}

/** A command of no company, at a fixed instant: the context of the tests of `execute` itself. */
export const CONTEXTO_SEM_EMPRESA: CommandContext = {
  companyId: null,
  correlationId: 'c',
  causationId: null,
  requestId: null,
  actor: 'test',
  now: new Date('2026-11-22T12:00:00Z'),
};
