import { type Pool } from 'pg';
import { type ProjectionLag } from '../projections/runner';

export interface ReadinessCheck {
  ok: boolean;
  /** What an operator reads: why it passed or failed. */
  detail: string;
}

/** `GET /health/ready`'s body: ready only when every check is. */
export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: Record<string, ReadinessCheck>;
}

export interface ReadinessOptions {
  /** True once migrations ran and the services started; false again as soon as shutdown begins. */
  started: () => boolean;
  pool: Pool;
  /** The read models' runner, when this process serves them (API) or fills them (projector); null otherwise. */
  projections: { lag(now?: Date): Promise<ProjectionLag> } | null;
  /** READY_MAX_LAG_S: the oldest event not yet projected may be this old. */
  maxLagS: number;
  clock?: () => Date;
  /** A check that does not answer within this fails rather than hold the probe (a database that hangs). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 2_000;

/** The readiness probe both the API and the ops server answer with. */
export function readinessProbe(options: ReadinessOptions): () => Promise<Readiness> {
  const clock = options.clock ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return async () => {
    const checks: Record<string, ReadinessCheck> = {
      started: options.started()
        ? { ok: true, detail: 'migrations done, services running' }
        : { ok: false, detail: 'starting or shutting down' },
    };
    const [database, projections] = await Promise.all([
      check(timeoutMs, async () => {
        await options.pool.query('SELECT 1');
        return { ok: true, detail: 'answers' };
      }),
      options.projections
        ? check(timeoutMs, async () => {
            const lag = await options.projections!.lag(clock());
            const seconds = Math.round(lag.seconds * 10) / 10;
            return {
              ok: lag.seconds <= options.maxLagS,
              detail: `${lag.events} events not yet projected, the oldest ${seconds} s old (limit ${options.maxLagS} s)`,
            };
          })
        : null,
    ]);
    checks.database = database;
    if (projections) checks.projections = projections;
    return { status: Object.values(checks).every((c) => c.ok) ? 'ready' : 'not_ready', checks };
  };
}

async function check(timeoutMs: number, run: () => Promise<ReadinessCheck>): Promise<ReadinessCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReadinessCheck>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([
      run().catch((err: unknown) => ({ ok: false, detail: err instanceof Error ? err.message : String(err) })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
