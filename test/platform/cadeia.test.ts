import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Pool } from 'pg';
import { GENESE_DA_CADEIA, migrate, PostgresEventStore, platformMigrations, verificarCadeia } from '@frete/platform';
import { freshDatabase, type TestDatabase } from '../support/db';
import { newEvent } from '../conformance/event-store.suite';

jest.setTimeout(60_000);

const EMPRESA_A = randomUUID();
const EMPRESA_B = randomUUID();

/** `total` appends of 1–3 events, `concorrencia` at a time, alternating A and B (every 7th operator-wide), on 6 streams. */
async function appendsConcorrentes(store: PostgresEventStore, total: number, concorrencia: number): Promise<void> {
  let proximo = 0;
  await Promise.all(
    Array.from({ length: concorrencia }, async () => {
      for (let i = proximo++; i < total; i = proximo++) {
        const empresa = i % 7 === 6 ? null : i % 2 ? EMPRESA_B : EMPRESA_A;
        const eventos = Array.from({ length: 1 + (i % 3) }, (_, j) =>
          newEvent('teste.registrado', { i, j, texto: 'linha\n"aspas" ç' }, empresa),
        );
        await store.append(`cadeia-${i % 6}`, eventos, 'any');
      }
    }),
  );
}

interface Elo {
  event_id: string;
  company_seq: string;
  prev_hash: string;
  hash: string;
}

const cadeiaDe = async (pool: Pool, chave: string): Promise<Elo[]> =>
  (
    await pool.query<Elo>(`SELECT event_id, company_seq, prev_hash, hash FROM es_events WHERE company_key = $1 ORDER BY company_seq`, [
      chave,
    ])
  ).rows;

describe('event log hash chains (tamper evidence)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let cadeiaA: Elo[];

  beforeEach(async () => {
    db = await freshDatabase();
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 50 });
    await appendsConcorrentes(store, 50, 8);
    cadeiaA = await cadeiaDe(db.pool, EMPRESA_A);
  });
  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it('chains each company apart, gapless, under concurrent appends; the whole log verifies as intact', async () => {
    const { rows: total } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events');
    for (const chave of [EMPRESA_A, EMPRESA_B, '']) {
      const cadeia = await cadeiaDe(db.pool, chave);
      expect(cadeia.length).toBeGreaterThan(0);
      expect(cadeia.map((e) => Number(e.company_seq))).toEqual(cadeia.map((_, i) => i + 1));
      expect(cadeia.map((e) => e.prev_hash)).toEqual([GENESE_DA_CADEIA, ...cadeia.slice(0, -1).map((e) => e.hash)]);
      const { rows: cabeca } = await db.pool.query('SELECT last_seq, last_hash FROM es_company_chains WHERE company_key = $1', [chave]);
      expect(cabeca).toEqual([{ last_seq: String(cadeia.length), last_hash: cadeia.at(-1)!.hash }]);
    }
    expect(await verificarCadeia(db.pool)).toEqual({ integra: true, primeiro_evento_divergente: null, eventos_verificados: total[0]!.n });
    // Pages of 2: the keyset crosses chains and chunk boundaries.
    const progresso: number[] = [];
    const emPaginas = await verificarCadeia(db.pool, { tamanhoDoLote: 2, onProgress: (p) => progresso.push(p.eventos_verificados) });
    expect(emPaginas).toEqual({ integra: true, primeiro_evento_divergente: null, eventos_verificados: total[0]!.n });
    expect(progresso.length).toBeGreaterThan(total[0]!.n / 2 - 1);
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_A })).toEqual({
      integra: true,
      primeiro_evento_divergente: null,
      eventos_verificados: cadeiaA.length,
    });
  });

  it("an auditor recomputes an event's hash outside the database from the documented canonical form", async () => {
    const { rows } = await db.pool.query(
      `SELECT prev_hash, hash, event_id, stream_id, stream_revision, event_type, schema_version, data::text AS data, metadata::text AS metadata,
              to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at
         FROM es_events WHERE company_key = $1 ORDER BY company_seq LIMIT 3`,
      [EMPRESA_B],
    );
    for (const e of rows) {
      const canonico =
        `[${JSON.stringify(e.prev_hash)}, ${JSON.stringify(e.event_id)}, ${JSON.stringify(e.stream_id)}, ${e.stream_revision}, ` +
        `${JSON.stringify(e.event_type)}, ${e.schema_version}, ${e.data}, ${e.metadata}, ${JSON.stringify(e.recorded_at)}]`;
      expect(createHash('sha256').update(canonico, 'utf8').digest('hex')).toBe(e.hash);
    }
  });

  it.each([
    ['data', `UPDATE es_events SET data = jsonb_set(data, '{texto}', '"outro"') WHERE event_id = $1`],
    ['metadata', `UPDATE es_events SET metadata = jsonb_set(metadata, '{actor}', '"intruso"') WHERE event_id = $1`],
    ['event_type', `UPDATE es_events SET event_type = 'teste.forjado' WHERE event_id = $1`],
    ['recorded_at', `UPDATE es_events SET recorded_at = recorded_at - interval '1 day' WHERE event_id = $1`],
  ])('an event whose %s is edited in SQL is named as the first divergent, by company and over all', async (_campo, sql) => {
    const alvo = cadeiaA[3]!.event_id;
    await db.pool.query(sql, [alvo]);
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_A })).toEqual({
      integra: false,
      primeiro_evento_divergente: alvo,
      eventos_verificados: 4,
    });
    expect(await verificarCadeia(db.pool, { tamanhoDoLote: 3 })).toMatchObject({ integra: false, primeiro_evento_divergente: alvo });
    // Another company's chain is its own: not read as divergent.
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_B })).toMatchObject({ integra: true, primeiro_evento_divergente: null });
    expect(await verificarCadeia(db.pool, { companyId: '' })).toMatchObject({ integra: true });
  });

  it('a deleted event: the one after the gap is named; a deleted first event: the new first one', async () => {
    await db.pool.query('DELETE FROM es_events WHERE event_id = $1', [cadeiaA[2]!.event_id]);
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_A })).toMatchObject({
      integra: false,
      primeiro_evento_divergente: cadeiaA[3]!.event_id,
    });
    await db.pool.query('DELETE FROM es_events WHERE event_id = $1', [cadeiaA[0]!.event_id]);
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_A })).toMatchObject({
      integra: false,
      primeiro_evento_divergente: cadeiaA[1]!.event_id,
    });
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_B })).toMatchObject({ integra: true });
  });

  it("a deleted last event: the last one left is named (the chain's head is ahead of it); a deleted chain: no event to name", async () => {
    await db.pool.query('DELETE FROM es_events WHERE event_id = $1', [cadeiaA.at(-1)!.event_id]);
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_A })).toMatchObject({
      integra: false,
      primeiro_evento_divergente: cadeiaA.at(-2)!.event_id,
    });
    expect(await verificarCadeia(db.pool, { tamanhoDoLote: 1 })).toMatchObject({
      integra: false,
      primeiro_evento_divergente: cadeiaA.at(-2)!.event_id,
    });
    await db.pool.query('DELETE FROM es_events WHERE company_key = $1', [EMPRESA_A]);
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_A })).toEqual({
      integra: false,
      primeiro_evento_divergente: null,
      eventos_verificados: 0,
    });
    expect(await verificarCadeia(db.pool)).toMatchObject({ integra: false, primeiro_evento_divergente: null });
    expect(await verificarCadeia(db.pool, { companyId: randomUUID() })).toEqual({
      integra: true,
      primeiro_evento_divergente: null,
      eventos_verificados: 0,
    });
  });

  it('an edit whose own hash was recomputed breaks the next link: the next event is named', async () => {
    await db.pool.query(
      `UPDATE es_events SET data = '{"forjado": true}',
              hash = es_event_hash(prev_hash, event_id, stream_id, stream_revision, event_type, schema_version, '{"forjado": true}', metadata, recorded_at)
        WHERE event_id = $1`,
      [cadeiaA[1]!.event_id],
    );
    expect(await verificarCadeia(db.pool, { companyId: EMPRESA_A })).toEqual({
      integra: false,
      primeiro_evento_divergente: cadeiaA[2]!.event_id,
      eventos_verificados: 3,
    });
  });

  it('a repeated append (the same event ids) writes no second link', async () => {
    const repetido = newEvent('teste.registrado', {}, EMPRESA_A);
    await store.append('cadeia-x', [repetido], 'no_stream');
    await store.append('cadeia-x', [repetido], 'no_stream');
    const cadeia = await cadeiaDe(db.pool, EMPRESA_A);
    expect(cadeia.length).toBe(cadeiaA.length + 1);
    expect(cadeia.at(-1)).toMatchObject({ event_id: repetido.id, prev_hash: cadeiaA.at(-1)!.hash });
    expect(await verificarCadeia(db.pool)).toMatchObject({ integra: true });
  });
});

describe('event log hash chains: a database upgraded from before them', () => {
  const MIGRACAO = '1700000000906_es-cadeia';
  let db: TestDatabase;
  afterEach(() => db.drop());

  // 906's own Down section (after those of the migrations that came after it, newest first), and their rows gone from
  // the migrations table: the next migrate() applies them again, 906 first.
  const desfazer906 = async (pool: Pool) => {
    const { rows } = await pool.query<{ name: string }>(
      `SELECT name FROM ${platformMigrations.table} WHERE name >= $1 ORDER BY name DESC`,
      [MIGRACAO],
    );
    expect(rows.at(-1)?.name).toBe(MIGRACAO);
    for (const { name } of rows) {
      const sql = fs.readFileSync(path.join(platformMigrations.dir, `${name}.sql`), 'utf8');
      await pool.query(
        `BEGIN; ${sql.split('-- Down Migration')[1]}; DELETE FROM ${platformMigrations.table} WHERE name = '${name}'; COMMIT`,
      );
    }
  };

  it('chains the events stored before the migration per company in commit order, and verifies as intact', async () => {
    db = await freshDatabase();
    await desfazer906(db.pool);
    const store = new PostgresEventStore(db.pool, { pollIntervalMs: 50 });
    try {
      await appendsConcorrentes(store, 20, 4);
      await migrate(db.pool, platformMigrations);
      const { rows: total } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events');
      expect(await verificarCadeia(db.pool)).toEqual({ integra: true, primeiro_evento_divergente: null, eventos_verificados: total[0]!.n });
      const { rows: ordem } = await db.pool.query(
        `SELECT company_seq, row_number() OVER (ORDER BY transaction_id, global_position) AS na_ordem_de_commit
           FROM es_events WHERE company_key = $1 ORDER BY company_seq`,
        [EMPRESA_A],
      );
      expect(ordem.map((r) => r.company_seq)).toEqual(ordem.map((r) => r.na_ordem_de_commit));
      // New appends continue the backfilled chains.
      await appendsConcorrentes(store, 10, 4);
      const { rows: depois } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events');
      expect(depois[0]!.n).toBeGreaterThan(total[0]!.n);
      expect(await verificarCadeia(db.pool)).toEqual({
        integra: true,
        primeiro_evento_divergente: null,
        eventos_verificados: depois[0]!.n,
      });
    } finally {
      await store.close();
    }
  });
});
