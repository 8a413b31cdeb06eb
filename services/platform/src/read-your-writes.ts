import { type Pool } from 'pg';
import { type Position } from '@frete/contracts';
import { READ_MODELS } from './projections/runner';
import { Backoff } from './retry/backoff';

/**
 * A GET right after a company's command must see its effect, whichever API copy serves it: each write records
 * the company's watermark, and a read waits (bounded) until the read models' checkpoint has passed it.
 */
export class ReadYourWrites {
  constructor(
    private readonly pool: Pool,
    private readonly timeoutMs = 5000,
    private readonly checkpoint = READ_MODELS,
  ) {}

  async recordWrite(companyId: string, position: Position): Promise<void> {
    await this.pool.query(
      `INSERT INTO write_watermarks (company_id, commit_pos, prepare_pos) VALUES ($1, $2, $3)
       ON CONFLICT (company_id) DO UPDATE SET commit_pos = EXCLUDED.commit_pos, prepare_pos = EXCLUDED.prepare_pos
        WHERE (write_watermarks.commit_pos, write_watermarks.prepare_pos) < (EXCLUDED.commit_pos, EXCLUDED.prepare_pos)`,
      [companyId, position.commit.toString(), position.prepare.toString()],
    );
  }

  /** True once the read models have caught up with the company's last write; false if the wait timed out. */
  async waitFor(companyId: string): Promise<boolean> {
    const deadline = Date.now() + this.timeoutMs;
    const polls = new Backoff({ baseMs: 5, capMs: 50, jitter: 'none' });
    for (;;) {
      const { rows } = await this.pool.query<{ ok: boolean }>(
        `SELECT COALESCE((SELECT (c.commit_pos, c.prepare_pos) >= (w.commit_pos, w.prepare_pos)
                            FROM rm.projection_checkpoint c WHERE c.name = $2), false) AS ok
           FROM write_watermarks w WHERE w.company_id = $1`,
        [companyId, this.checkpoint],
      );
      if (rows.length === 0 || rows[0]!.ok) return true;
      if (Date.now() >= deadline) return false;
      await polls.next();
    }
  }
}
