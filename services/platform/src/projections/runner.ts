import { type Pool } from 'pg';
import { type Position, type RecordedEvent, START, comparePositions } from '@frete/contracts';
import { type Projector, readModelMigrations } from '@frete/projections';
import { type EventStore, type Subscription } from '../event-store/port';
import { supervisedSubscription } from '../event-store/supervised';
import { migrate } from '../db/migrate';
import { Backoff } from '../retry/backoff';
import { type Projetores, projetar, separarProjetores } from './projetar';
import { type OpcoesVerificacao, type RelatorioVerificacao, verificarReadModels } from './verificacao';
import { type RelatorioReconstrucao, reconstruirSemParada } from './reconstrucao';
import { CHECKPOINT_CHANNEL, type CheckpointAdvance, encodeCheckpointAdvance } from './checkpoint-advance';

export const READ_MODELS = 'read-models';

/** A lag count beyond this is reported as this: past it, an operator's answer is the same. */
export const LAG_COUNT_CAP = 100_000;

export interface ProjectionLag {
  /** Events after the checkpoint (at most the cap asked for). */
  events: number;
  /** Age in seconds of the oldest event not yet projected; 0 when none is. */
  seconds: number;
}

const toPosition = (row: { commit_pos: string; prepare_pos: string }): Position => ({
  commit: BigInt(row.commit_pos),
  prepare: BigInt(row.prepare_pos),
});

/**
 * Applies every projector to each event and moves the checkpoint in the same transaction. The checkpoint row is
 * locked first and events at or before it are skipped, so a restart, a redelivery or a second runner on the same
 * database never applies anything twice.
 */
export class ProjectionRunner {
  private subscription: Subscription | null = null;
  private readonly projetores: Projetores;
  private readonly appliedListeners: ((advance: CheckpointAdvance) => void)[] = [];
  /** Batches of this runner under way: committed ones may not have been announced yet. */
  private readonly applying = new Set<Promise<number>>();

  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    private readonly projectors: Projector[],
    readonly name: string = READ_MODELS,
  ) {
    this.projetores = separarProjetores(projectors);
  }

  async prepare(): Promise<void> {
    await migrate(this.pool, readModelMigrations);
    await this.pool.query(
      `INSERT INTO rm.projection_checkpoint (name, commit_pos, prepare_pos, updated_at) VALUES ($1, 0, 0, now())
       ON CONFLICT (name) DO NOTHING`,
      [this.name],
    );
  }

  async position(): Promise<Position> {
    const { rows } = await this.pool.query<{ commit_pos: string; prepare_pos: string }>(
      `SELECT commit_pos, prepare_pos FROM rm.projection_checkpoint WHERE name = $1`,
      [this.name],
    );
    return rows[0] ? toPosition(rows[0]) : START;
  }

  /**
   * How far the read models are behind the log: the events after the checkpoint (at most `cap`) and the age of the
   * oldest of them (0 when none). Readiness and the lag gauges read it.
   */
  async lag(now: Date = new Date(), cap = LAG_COUNT_CAP): Promise<ProjectionLag> {
    const from = await this.position();
    const [next] = await this.store.readAll(from, 1);
    if (!next) return { events: 0, seconds: 0 };
    const events = this.store.countAfter ? await this.store.countAfter(from, cap) : (await this.store.readAll(from, cap)).length;
    return { events, seconds: Math.max(0, (now.getTime() - next.recordedAt.getTime()) / 1000) };
  }

  /**
   * Hears each batch this runner commits, synchronously after the commit: this process knows at once what its own
   * runner applied (other processes hear it on CHECKPOINT_CHANNEL).
   */
  onApplied(listener: (advance: CheckpointAdvance) => void): void {
    this.appliedListeners.push(listener);
  }

  /** Applies a run of events in one transaction; returns how many were new. */
  apply(events: RecordedEvent[]): Promise<number> {
    if (events.length === 0) return Promise.resolve(0);
    const run = this.applyBatch(events);
    this.applying.add(run);
    const done = (): void => void this.applying.delete(run);
    run.then(done, done);
    return run;
  }

  private async applyBatch(events: RecordedEvent[]): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ commit_pos: string; prepare_pos: string }>(
        `SELECT commit_pos, prepare_pos FROM rm.projection_checkpoint WHERE name = $1 FOR UPDATE`,
        [this.name],
      );
      const { checkpoint, applied, aggregates } = await projetar(client, this.projetores, events, rows[0] ? toPosition(rows[0]) : START);
      let advance: CheckpointAdvance | null = null;
      if (applied > 0) {
        advance = { name: this.name, position: checkpoint, aggregates: [...aggregates] };
        // The notification goes out with the commit, in the same round trip as the checkpoint's update.
        await client.query(
          `WITH moved AS (UPDATE rm.projection_checkpoint SET commit_pos = $2, prepare_pos = $3, updated_at = now() WHERE name = $1)
           SELECT pg_notify('${CHECKPOINT_CHANNEL}', $4)`,
          [this.name, checkpoint.commit.toString(), checkpoint.prepare.toString(), encodeCheckpointAdvance(advance)],
        );
      }
      await client.query('COMMIT');
      if (advance) this.announce(advance);
      return applied;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private announce(advance: CheckpointAdvance): void {
    for (const listener of this.appliedListeners) {
      try {
        listener(advance);
      } catch {
        // The batch is committed whatever a listener does; its listeners fall back on their own (a TTL, SQL).
      }
    }
  }

  /** Reads the log from the checkpoint until nothing is left; batches share a transaction. */
  async catchUp(batchSize = 200): Promise<number> {
    let total = 0;
    for (;;) {
      const from = await this.position();
      const batch = await this.store.readAll(from, batchSize);
      if (batch.length === 0) return total;
      total += await this.apply(batch);
    }
  }

  /**
   * Applies the log until the checkpoint reaches `target` (a write's position). "Nothing left to read" is not
   * enough: an older transaction still open anywhere in the cluster keeps newer events invisible for a moment.
   */
  async catchUpTo(target: Position, timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let applied = 0;
    const polls = new Backoff({ baseMs: 2, capMs: 50, jitter: 'none' });
    for (;;) {
      applied += await this.catchUp();
      if (comparePositions(await this.position(), target) >= 0) {
        // The live subscription may have committed the target a moment ago without having told this process's
        // listeners yet (a revoked credential still in the cache): a caller that waited must find them told.
        await Promise.allSettled([...this.applying]);
        return applied;
      }
      if (Date.now() > deadline)
        throw new Error(`read models did not reach position ${target.commit}/${target.prepare} in ${timeoutMs} ms`);
      await polls.next();
    }
  }

  async start(onError: (err: unknown) => void = () => undefined): Promise<void> {
    if (this.subscription) return;
    this.subscription = supervisedSubscription(this.store, {
      from: () => this.position(),
      onEvent: async (e) => void (await this.apply([e])),
      // What the store read together is projected together: one transaction and one checkpoint per batch.
      onBatch: async (events) => void (await this.apply(events)),
      onError,
    });
  }

  /** Settles when the live subscription ends (rejects with the error that stopped it). */
  get done(): Promise<void> {
    return this.subscription?.done ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    const s = this.subscription;
    this.subscription = null;
    await s?.stop();
  }

  /** Drops every read model, recreates the tables and replays the whole log; returns the events applied. */
  async rebuild(): Promise<number> {
    await this.stop();
    const target = await this.store.headPosition();
    await this.pool.query('DROP SCHEMA IF EXISTS rm CASCADE');
    await this.prepare();
    return this.catchUpTo(target);
  }

  /**
   * Rebuilds the read models while everything keeps running: the log replayed into a side schema, swapped in for the
   * live one in a short transaction (see `reconstruirSemParada`). This runner's subscription, if started, goes on.
   */
  reconstruir(opcoes?: Pick<OpcoesVerificacao, 'tamanhoDoLote' | 'aoProgredir'>): Promise<RelatorioReconstrucao> {
    return reconstruirSemParada({ store: this.store, pool: this.pool, projectors: this.projectors, name: this.name }, opcoes);
  }

  /** Replays the log into a side schema and compares it with the live read models, which it never writes. */
  verificar(opcoes?: OpcoesVerificacao): Promise<RelatorioVerificacao> {
    return verificarReadModels({ store: this.store, pool: this.pool, projectors: this.projectors, name: this.name }, opcoes);
  }
}
