import { EventEmitter } from 'node:events';
import { type Pool, type PoolClient } from 'pg';
import { type NewEvent, type Position, type RecordedEvent, START } from '@frete/contracts';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevision,
} from './port';

/** An es_events row as the store's readers select it (COLUMNS). */
export interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: RecordedEvent['metadata'];
  recorded_at: Date;
}

export const COLUMNS = `global_position, transaction_id::text AS transaction_id, stream_id, stream_revision, event_id,
  event_type, schema_version, data, metadata, recorded_at`;

export const toRecorded = (r: EventRow): RecordedEvent => ({
  id: r.event_id,
  type: r.event_type,
  schemaVersion: r.schema_version,
  data: r.data,
  metadata: r.metadata,
  streamId: r.stream_id,
  revision: BigInt(r.stream_revision),
  position: { commit: BigInt(r.transaction_id), prepare: BigInt(r.global_position) },
  recordedAt: r.recorded_at,
});

const NOTIFY_CHANNEL = 'es_events_appended';

/**
 * The transaction below which every event is committed and visible: the oldest transaction still running in this
 * database, or the snapshot's xmax when none is. Transaction ids are counted per cluster, so pg_snapshot_xmin alone
 * would let any long transaction of another database on the same server (another product, a migration, a test suite)
 * hold every reader back. A running transaction is known to be elsewhere only while its lock on its own id shows a
 * backend of another database; one that ended between the snapshot and that look counts as ours, and the next read
 * moves on.
 */
const READ_BOUND = `WITH snap AS MATERIALIZED (SELECT pg_current_snapshot() AS s),
    elsewhere AS MATERIALIZED (
      SELECT l.transactionid::text AS xid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted
         AND a.datname IS DISTINCT FROM current_database())
  SELECT COALESCE(
    (SELECT min(x) FROM snap, pg_snapshot_xip(snap.s) AS x
      WHERE (x::text::numeric % 4294967296)::text NOT IN (SELECT xid FROM elsewhere)),
    (SELECT pg_snapshot_xmax(s) FROM snap))`;

// The procedure's OUT parameters are given as NULL placeholders, as CALL wants them.
const APPEND_AND_NOTIFY = 'CALL es_append_and_notify($1, $2, $3::jsonb, NULL, NULL, NULL, NULL)';

interface AppendRow {
  resultado: 'gravado' | 'repetido';
  revisao: string | null;
  commit_pos: string | null;
  prepare_pos: string | null;
}

export interface PostgresEventStoreOptions {
  /** How often a live subscription looks again when no notification woke it (an older transaction may still hold
   * newer events back). */
  pollIntervalMs?: number;
  /** Test hook: runs inside the append transaction just before COMMIT. */
  beforeCommit?: (client: PoolClient, streamId: string) => Promise<void>;
}

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private readonly wake = new EventEmitter();
  private unlisten: (() => Promise<void>) | null = null;
  private listening: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.wake.setMaxListeners(0);
  }

  /**
   * One round trip (`es_append_and_notify`, a migration's procedure): the stream's revision claimed, the expected
   * revision checked, the events inserted and committed, then the subscribers notified outside the append's
   * transaction (a notifying commit would serialise every append's WAL flush). An append whose ids are stored already
   * is answered as it was then (a second query, only for repeats).
   */
  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const params = [
      streamId,
      typeof expected === 'bigint' ? expected.toString() : expected,
      JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, schemaVersion: e.schemaVersion, data: e.data, metadata: e.metadata }))),
    ];
    let row: AppendRow;
    try {
      if (this.options.beforeCommit) row = await this.appendWithHook(params, streamId);
      else row = (await this.pool.query<AppendRow>(APPEND_AND_NOTIFY, params)).rows[0]!;
    } catch (err) {
      throw this.mapConflict(err, streamId, expected);
    }
    if (row.resultado === 'repetido') {
      const repeated = await this.findRepeat(this.pool, streamId, events);
      if (repeated) return repeated;
      // The stored events went with a concurrent truncation: nothing to answer from; let the caller retry.
      throw new WrongExpectedRevision(streamId, expected, -1n);
    }
    return { nextRevision: BigInt(row.revisao!), position: { commit: BigInt(row.commit_pos!), prepare: BigInt(row.prepare_pos!) } };
  }

  /** The procedure's two steps apart, with the test hook holding the append's transaction open before its commit. */
  private async appendWithHook(params: unknown[], streamId: string): Promise<AppendRow> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<AppendRow>(
        'SELECT resultado, revisao, commit_pos, prepare_pos FROM es_append($1, $2, $3::jsonb)',
        params,
      );
      await this.options.beforeCommit!(client, streamId);
      await client.query('COMMIT');
      if (rows[0]!.resultado === 'gravado') await client.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, '']);
      return rows[0]!;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** The same event ids already in this stream, in this order: the append happened before; answer as then. */
  private async findRepeat(db: Pool, streamId: string, events: NewEvent[]): Promise<AppendResult | null> {
    const { rows } = await db.query<EventRow>(
      `SELECT ${COLUMNS} FROM es_events WHERE event_id = ANY($1::uuid[]) ORDER BY global_position`,
      [events.map((e) => e.id)],
    );
    if (rows.length === 0) return null;
    const sameStream = rows.every((r) => r.stream_id === streamId);
    const sameOrder = rows.length === events.length && rows.every((r, i) => r.event_id === events[i]!.id);
    const contiguous = rows.every((r, i) => i === 0 || BigInt(r.stream_revision) === BigInt(rows[i - 1]!.stream_revision) + 1n);
    if (!sameStream || !sameOrder || !contiguous) {
      throw new WrongExpectedRevision(streamId, 'any', BigInt(rows[0]!.stream_revision));
    }
    const last = toRecorded(rows[rows.length - 1]!);
    return { nextRevision: last.revision, position: last.position };
  }

  private mapConflict(err: unknown, streamId: string, expected: ExpectedRevision): unknown {
    const { code, message, detail } = err as { code?: string; message?: string; detail?: string };
    if (code === 'P0001' && message === 'wrong_expected_revision')
      return new WrongExpectedRevision(streamId, expected, detail === 'no_stream' || !detail ? 'no_stream' : BigInt(detail));
    if (code === '23505' || code === '40001' || code === '40P01') return new WrongExpectedRevision(streamId, expected, -1n);
    return err;
  }

  async readStream(streamId: string, after?: bigint): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_revision > $2 ORDER BY stream_revision`,
      [streamId, (after ?? -1n).toString()],
    );
    return rows.map(toRecorded);
  }

  async readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM es_events
        WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          AND transaction_id < (${READ_BOUND})
        ORDER BY es_events.transaction_id, es_events.global_position
        LIMIT $3`,
      [from.commit.toString(), from.prepare.toString(), maxCount],
    );
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<Position> {
    const { rows } = await this.pool.query<{ transaction_id: string; global_position: string }>(
      // Every committed event, not only those readers may take yet: a target to catch up to.
      `SELECT transaction_id::text AS transaction_id, global_position FROM es_events
        ORDER BY es_events.transaction_id DESC, es_events.global_position DESC LIMIT 1`,
    );
    const r = rows[0];
    return r ? { commit: BigInt(r.transaction_id), prepare: BigInt(r.global_position) } : START;
  }

  async countAfter(from: Position, cap: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM es_events
        WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint) LIMIT $3) AS after`,
      [from.commit.toString(), from.prepare.toString(), cap],
    );
    return rows[0]!.n;
  }

  subscribeToAll({ from, onEvent, onBatch }: SubscribeOptions): Subscription {
    let stopped = false;
    let position = from;
    let wakeUp: (() => void) | null = null;
    const onWake = () => wakeUp?.();
    this.wake.on('wake', onWake);
    const pollMs = this.options.pollIntervalMs ?? 200;
    let retryMs = 0;
    const loop = async () => {
      await this.ensureListening();
      while (!stopped) {
        const batch = await this.readAll(position, 500);
        if (onBatch && batch.length > 0) {
          if (stopped) return;
          await onBatch(batch);
          position = batch[batch.length - 1]!.position;
        } else {
          for (const event of batch) {
            if (stopped) return;
            await onEvent(event);
            position = event.position;
          }
        }
        if (batch.length < 500 && !stopped) {
          // A wake that then reads nothing means an older transaction of this database still holds the appended
          // events back: look again soon, backing off, rather than after a whole poll interval.
          if (batch.length > 0) retryMs = 0;
          const woken = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), retryMs || pollMs);
            wakeUp = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          wakeUp = null;
          if (woken) retryMs = 5;
          else if (retryMs) retryMs = retryMs * 2 < pollMs ? retryMs * 2 : 0;
        }
      }
    };
    const done = loop().finally(() => this.wake.off('wake', onWake));
    return {
      done,
      stop: async () => {
        stopped = true;
        onWake();
        await done.catch(() => undefined);
      },
    };
  }

  private ensureListening(): Promise<void> {
    if (this.listening) return this.listening;
    this.listening = (async () => {
      const client = await this.pool.connect();
      // A dead connection goes back to the pool as broken (destroyed), once: the pool would otherwise count it checked
      // out forever and never end. Subscriptions keep polling meanwhile, and the next one listens again.
      let held = true;
      const giveBack = (err?: Error) => {
        if (!held) return;
        held = false;
        this.listening = null;
        client.release(err);
      };
      client.on('notification', () => this.wake.emit('wake'));
      client.on('error', (err) => giveBack(err));
      try {
        await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      } catch (err) {
        giveBack(err instanceof Error ? err : new Error(String(err)));
        throw err;
      }
      this.unlisten = async () => {
        await client.query(`UNLISTEN ${NOTIFY_CHANNEL}`).catch(() => undefined);
        giveBack();
      };
    })();
    return this.listening;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.listening) await this.listening.catch(() => undefined);
    await this.unlisten?.();
    this.unlisten = null;
  }
}
