import { randomUUID } from 'node:crypto';
import { comparePositions } from '@frete/contracts';
import { type Pool } from 'pg';
import { migrate, ProjectionRunner } from '@frete/platform';
import { execute } from '@frete/application';
import { READ_MODEL_PROJECTORS, readModelMigrations } from '@frete/projections';
import { companyDecider, configuracaoDecider } from '@frete/domain';
import { withEventStore } from '../support/store';
import { randomCnpj } from '../support/app';

const ctx = (companyId: string) => ({
  companyId,
  correlationId: randomUUID(),
  causationId: null,
  requestId: null,
  actor: 'test',
  now: new Date(),
});

async function tables(pool: Pool): Promise<Record<string, unknown[]>> {
  const { rows } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'rm' AND table_name NOT LIKE 'pgmigrations%' ORDER BY 1`,
  );
  const out: Record<string, unknown[]> = {};
  for (const { table_name } of rows) {
    if (table_name === 'projection_checkpoint') continue;
    out[table_name] = (await pool.query(`SELECT * FROM rm.${table_name} ORDER BY 1`)).rows;
  }
  return out;
}

describe('projection runner', () => {
  const fixture = withEventStore();

  const seed = async (n: number) => {
    const { store } = fixture;
    for (let i = 0; i < n; i++) {
      const cnpj = randomCnpj();
      const id = randomUUID();
      await execute(
        { store },
        `company-${id}`,
        companyDecider,
        {
          type: 'RegisterCompany',
          company_id: id,
          cnpj,
          razao_social: `EMPRESA ${i}`,
          flags: { carrier: true, fiscal_ready: i % 2 === 0, fiscal_production: false },
        },
        ctx(id),
      );
      await execute(
        { store },
        `configuracao-${id}`,
        configuracaoDecider,
        { type: 'AtualizarConfiguracao', company_id: id, changes: { rntrc: String(10000000 + i), serie_cte: i } },
        ctx(id),
      );
    }
  };

  it('resumes after a restart without applying anything twice', async () => {
    const { db, store } = fixture;
    await seed(3);
    const runner = new ProjectionRunner(store, db.pool, READ_MODEL_PROJECTORS);
    await runner.prepare();
    await runner.start();
    await seed(2);
    const live = await store.headPosition();
    for (let i = 0; i < 200 && comparePositions(await runner.position(), live) < 0; i++) await new Promise((r) => setTimeout(r, 25));
    await runner.stop();
    await seed(2);
    // A second runner, and the first one again, over the same database: the checkpoint lock keeps it exactly once.
    const other = new ProjectionRunner(store, db.pool, READ_MODEL_PROJECTORS);
    const head = await store.headPosition();
    await Promise.all([runner.catchUpTo(head), other.catchUpTo(head)]);
    // Replaying events that are already behind the checkpoint changes nothing.
    expect(await runner.apply(await store.readAll({ commit: 0n, prepare: 0n }, 1000))).toBe(0);
    const activity = await db.pool.query(`SELECT sum(events_count)::int AS n FROM rm.company_activity`);
    const events = await db.pool.query(`SELECT count(*)::int AS n FROM es_events`);
    expect(activity.rows[0].n).toBe(events.rows[0].n);
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM rm.companies`)).rows[0].n).toBe(7);
  });

  it('measures its lag: the events after the checkpoint and the age of the oldest, none once caught up', async () => {
    const { db, store } = fixture;
    const runner = new ProjectionRunner(store, db.pool, READ_MODEL_PROJECTORS);
    await runner.prepare();
    await runner.catchUpTo(await store.headPosition());
    expect(await runner.lag()).toEqual({ events: 0, seconds: 0 });
    await seed(2);
    const [oldest] = await store.readAll(await runner.position(), 1);
    const later = new Date(oldest!.recordedAt.getTime() + 90_000);
    expect(await runner.lag(later)).toEqual({ events: 4, seconds: 90 });
    expect((await runner.lag(later, 3)).events).toBe(3);
    await runner.catchUpTo(await store.headPosition());
    expect(await runner.lag(later)).toEqual({ events: 0, seconds: 0 });
  });

  it('returns from catchUpTo only once every batch it found committed has been announced', async () => {
    const { db, store } = fixture;
    // The live batch's COMMIT reaches PostgreSQL at once but its answer reaches the runner late: the window in which
    // the checkpoint says "applied" while this process's listeners (the credential cache) have not heard it.
    let slowCommits = 0;
    const pool = new Proxy(db.pool, {
      get(target, prop, receiver) {
        if (prop !== 'connect') {
          const value: unknown = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return async () => {
          const client = await target.connect();
          return new Proxy(client, {
            get(c, p, r) {
              if (p !== 'query') {
                const value: unknown = Reflect.get(c, p, r);
                return typeof value === 'function' ? value.bind(c) : value;
              }
              return async (...args: Parameters<typeof c.query>) => {
                const res = await (c.query as (...a: unknown[]) => Promise<unknown>)(...args);
                if (args[0] === 'COMMIT' && slowCommits > 0) {
                  slowCommits--;
                  await new Promise((r) => setTimeout(r, 300));
                }
                return res;
              };
            },
          });
        };
      },
    });
    const runner = new ProjectionRunner(store, pool, READ_MODEL_PROJECTORS);
    await runner.prepare();
    await runner.catchUpTo(await store.headPosition());
    let announced = (await runner.position()).commit;
    runner.onApplied((a) => void (announced = a.position.commit));
    const from = await runner.position();
    await seed(1);
    const target = await store.headPosition();
    slowCommits = 1;
    const live = runner.apply(await store.readAll(from, 100));
    while (comparePositions(await runner.position(), target) < 0) await new Promise((r) => setTimeout(r, 5));
    await runner.catchUpTo(target);
    expect(announced).toBeGreaterThanOrEqual(target.commit);
    await live;
  });

  it('rebuilds the same tables, row by row, from the log', async () => {
    const { db, store } = fixture;
    const runner = new ProjectionRunner(store, db.pool, READ_MODEL_PROJECTORS);
    await runner.catchUpTo(await store.headPosition());
    const before = await tables(db.pool);
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['companies', 'configuracoes_fiscais', 'company_activity']));
    expect(before.companies!.length).toBeGreaterThan(0);
    const applied = await runner.rebuild();
    const events = await db.pool.query(`SELECT count(*)::int AS n FROM es_events`);
    expect(applied).toBe(events.rows[0].n);
    expect(await tables(db.pool)).toEqual(before);
  });

  it('rebuilds online: readers and the live projector go on through the swap, and the new read models are what the log says', async () => {
    const { db, store } = fixture;
    const runner = new ProjectionRunner(store, db.pool, READ_MODEL_PROJECTORS);
    await runner.prepare();
    await runner.catchUpTo(await store.headPosition());
    // Read models gone wrong (a projector bug, a hand edit): the rebuild must bring back what the log says.
    await db.pool.query(
      `UPDATE rm.companies SET razao_social = 'CORROMPIDA' WHERE company_id = (SELECT min(company_id) FROM rm.companies)`,
    );
    await runner.start();

    // Readers all along, one of them with a prepared statement (its plan names the old table), and writers whose events
    // the live projector applies before, during and after the swap.
    const reader = await db.pool.connect();
    const errors: string[] = [];
    let reads = 0;
    let going = true;
    const reading = (async () => {
      while (going) {
        await reader.query({ name: 'contagem', text: 'SELECT count(*)::int AS n FROM rm.companies' }).then(
          () => void reads++,
          (err: Error) => void errors.push(err.message),
        );
        await db.pool.query('SELECT razao_social FROM rm.companies LIMIT 5').catch((err: Error) => void errors.push(err.message));
      }
    })();
    const writing = (async () => {
      while (going) await seed(1);
    })();
    let report;
    try {
      report = await runner.reconstruir({ tamanhoDoLote: 7 });
      await seed(1);
    } finally {
      going = false;
      await Promise.all([reading, writing]);
      reader.release();
    }
    expect(errors).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(report.reconstruido).toBe(true);
    expect(report.eventos_reaplicados).toBeGreaterThan(0);

    // The live projector carried on in the new schema from the swapped checkpoint: everything is applied once.
    await runner.catchUpTo(await store.headPosition());
    await runner.stop();
    const { rows: corrupted } = await db.pool.query(`SELECT 1 FROM rm.companies WHERE razao_social = 'CORROMPIDA'`);
    expect(corrupted).toEqual([]);
    const activity = await db.pool.query(`SELECT sum(events_count)::int AS n FROM rm.company_activity`);
    const events = await db.pool.query(`SELECT count(*)::int AS n FROM es_events`);
    expect(activity.rows[0].n).toBe(events.rows[0].n);
    const verified = await runner.verificar();
    expect(verified.tabelas.filter((t) => t.estrutura !== null || t.so_vivas > 0 || t.so_refeitas > 0)).toEqual([]);

    // The bookkeeping came along: the read-model migrations are not applied again; no schema is left behind.
    await migrate(db.pool, readModelMigrations);
    const { rows: schemas } = await db.pool.query(
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm\\_reconstrucao\\_%' OR nspname LIKE 'rm\\_antigo\\_%'`,
    );
    expect(schemas).toEqual([]);
    // The analysts' grants are the migrations' own, so they hold on the new tables.
    const { rows: grants } = await db.pool.query(
      `SELECT has_table_privilege('frete_analistas', 'rm.companies', 'SELECT') AS ok FROM pg_roles WHERE rolname = 'frete_analistas'`,
    );
    for (const g of grants) expect(g.ok).toBe(true);
  });
});
