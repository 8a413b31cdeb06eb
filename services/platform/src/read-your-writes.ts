import { type Pool } from 'pg';
import { type Position, comparePositions } from '@frete/contracts';
import { READ_MODELS } from './projections/runner';
import { CHECKPOINT_CHANNEL, type CheckpointAdvance, decodeCheckpointAdvance } from './projections/checkpoint-advance';
import { type NotificationListener } from './db/notification-listener';
import { Backoff, pause } from './retry/backoff';

/** Where each recorded watermark is announced, on commit, to every process that listens. */
export const WATERMARK_CHANNEL = 'write_watermark';

/** A wait that hears nothing this long asks the database (a notification lost on a connection not yet seen broken). */
const QUIET_MS = 50;

const max = (a: Position, b: Position) => (comparePositions(a, b) >= 0 ? a : b);
const positionOf = (commit: string, prepare: string): Position => ({ commit: BigInt(commit), prepare: BigInt(prepare) });

/**
 * A GET right after a company's command must see its effect, whichever API copy serves it: each write a request makes
 * records the company's watermark, and a read waits (bounded) until the read models' checkpoint has passed it.
 *
 * While this process listens (`follow`), both are known in memory: every watermark and every checkpoint is announced
 * with its commit (this process's own at once), so a company with nothing pending costs no SQL and a wait ends on the
 * checkpoint's notification. Without a listener, or while it is down, the database is asked as it always was.
 */
export class ReadYourWrites {
  /** The read models' checkpoint as last heard (it only moves forward). */
  private checkpoint: Position | null = null;
  /** Companies whose last watermark the checkpoint has not reached yet, as heard. */
  private readonly pending = new Map<string, Position>();
  private listener: NotificationListener | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly pool: Pool,
    private readonly timeoutMs = 5000,
    private readonly checkpointName = READ_MODELS,
  ) {}

  /** Follows watermarks and checkpoints through `listener` (it listens on WATERMARK_CHANNEL and CHECKPOINT_CHANNEL). */
  follow(listener: NotificationListener): void {
    this.listener = listener;
    listener.add({
      notification: (channel, payload) => {
        if (channel === CHECKPOINT_CHANNEL) {
          const advance = decodeCheckpointAdvance(payload);
          if (advance) this.checkpointAdvanced(advance);
        } else if (channel === WATERMARK_CHANNEL) {
          const w = this.watermarkOf(payload);
          if (w) this.raise(w.companyId, w.position);
        }
      },
      listening: () => this.reload(),
      // Waiters look at the database from now on.
      lost: () => this.wakeAll(),
    });
  }

  /** A batch of the read models committed (by this process's runner, or heard from another's). */
  checkpointAdvanced(advance: CheckpointAdvance): void {
    if (advance.name !== this.checkpointName) return;
    this.moveCheckpoint(advance.position);
  }

  async recordWrite(companyId: string, position: Position): Promise<void> {
    await this.pool.query(
      `WITH upsert AS (
         INSERT INTO write_watermarks (company_id, commit_pos, prepare_pos) VALUES ($1, $2, $3)
         ON CONFLICT (company_id) DO UPDATE SET commit_pos = EXCLUDED.commit_pos, prepare_pos = EXCLUDED.prepare_pos
          WHERE (write_watermarks.commit_pos, write_watermarks.prepare_pos) < (EXCLUDED.commit_pos, EXCLUDED.prepare_pos))
       SELECT pg_notify('${WATERMARK_CHANNEL}', $4)`,
      [
        companyId,
        position.commit.toString(),
        position.prepare.toString(),
        JSON.stringify({ company_id: companyId, commit: position.commit.toString(), prepare: position.prepare.toString() }),
      ],
    );
    // This process's next read must not depend on hearing its own notification first.
    this.raise(companyId, position);
  }

  /** True when this process knows, without asking the database, that the company has nothing to wait for. */
  caughtUp(companyId: string): boolean {
    if (!this.listener?.up) return false;
    const target = this.pending.get(companyId);
    return !target || this.reached(target);
  }

  /** True once the read models have caught up with the company's last write; false if the wait timed out. */
  async waitFor(companyId: string): Promise<boolean> {
    const deadline = Date.now() + this.timeoutMs;
    if (!this.listener?.up) return this.waitBySql(companyId, deadline);
    if (this.caughtUp(companyId)) return true;
    const target = this.pending.get(companyId)!;
    for (;;) {
      const heard = await this.nextAdvance(Math.max(1, Math.min(QUIET_MS, deadline - Date.now())));
      if (this.reached(target)) return true;
      if (!this.listener.up) return this.waitBySql(companyId, deadline);
      if (Date.now() >= deadline) return false;
      if (!heard) this.moveCheckpoint(await this.checkpointInDatabase());
    }
  }

  private reached(target: Position): boolean {
    return this.checkpoint !== null && comparePositions(this.checkpoint, target) >= 0;
  }

  private raise(companyId: string, position: Position): void {
    if (this.reached(position)) return;
    const known = this.pending.get(companyId);
    this.pending.set(companyId, known ? max(known, position) : position);
  }

  private moveCheckpoint(position: Position): void {
    if (this.checkpoint && comparePositions(position, this.checkpoint) <= 0) return;
    this.checkpoint = position;
    for (const [companyId, watermark] of this.pending) if (this.reached(watermark)) this.pending.delete(companyId);
    this.wakeAll();
  }

  private wakeAll(): void {
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** True when the checkpoint moved (or the listener fell) before the pause ended. */
  private async nextAdvance(ms: number): Promise<boolean> {
    const heard = new AbortController();
    const wake = () => heard.abort();
    this.waiters.add(wake);
    await pause(ms, heard.signal);
    this.waiters.delete(wake);
    return heard.signal.aborted;
  }

  /** What may have been missed while nobody listened: the checkpoint, and every watermark it has not reached. */
  private async reload(): Promise<void> {
    const { rows } = await this.pool.query<{
      commit_pos: string;
      prepare_pos: string;
      company_id: string | null;
      w_commit: string;
      w_prepare: string;
    }>(
      `SELECT c.commit_pos, c.prepare_pos, w.company_id, w.commit_pos AS w_commit, w.prepare_pos AS w_prepare
         FROM rm.projection_checkpoint c
         LEFT JOIN write_watermarks w ON (w.commit_pos, w.prepare_pos) > (c.commit_pos, c.prepare_pos)
        WHERE c.name = $1`,
      [this.checkpointName],
    );
    if (rows[0]) this.moveCheckpoint(positionOf(rows[0].commit_pos, rows[0].prepare_pos));
    for (const r of rows) if (r.company_id) this.raise(r.company_id, positionOf(r.w_commit, r.w_prepare));
  }

  private async checkpointInDatabase(): Promise<Position> {
    const { rows } = await this.pool.query<{ commit_pos: string; prepare_pos: string }>(
      `SELECT commit_pos, prepare_pos FROM rm.projection_checkpoint WHERE name = $1`,
      [this.checkpointName],
    );
    return rows[0] ? positionOf(rows[0].commit_pos, rows[0].prepare_pos) : { commit: 0n, prepare: 0n };
  }

  private watermarkOf(payload: string): { companyId: string; position: Position } | null {
    try {
      const p = JSON.parse(payload) as { company_id: string; commit: string; prepare: string };
      return typeof p.company_id === 'string' ? { companyId: p.company_id, position: positionOf(p.commit, p.prepare) } : null;
    } catch {
      return null;
    }
  }

  /** The database's answer, polled: without a listener, nothing else is known. */
  private async waitBySql(companyId: string, deadline: number): Promise<boolean> {
    const polls = new Backoff({ baseMs: 5, capMs: 50, jitter: 'none' });
    for (;;) {
      const { rows } = await this.pool.query<{ ok: boolean }>(
        `SELECT COALESCE((SELECT (c.commit_pos, c.prepare_pos) >= (w.commit_pos, w.prepare_pos)
                            FROM rm.projection_checkpoint c WHERE c.name = $2), false) AS ok
           FROM write_watermarks w WHERE w.company_id = $1`,
        [companyId, this.checkpointName],
      );
      if (rows.length === 0 || rows[0]!.ok) return true;
      if (Date.now() >= deadline) return false;
      await polls.next();
    }
  }
}
