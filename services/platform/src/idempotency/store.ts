import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type SecretCipher, SecretCipherError } from '../secrets/cipher';

/** What identifies one request under a key: a retry must match all of it, or the key was reused for another request. */
export interface IdempotentRequest {
  companyId: string;
  key: string;
  method: string;
  /** The path and query as sent (`/v1/fiscal/cte/<id>/eventos/cancelamento`): the same key on another resource is another request. */
  path: string;
  /** SHA-256 (hex) of the request's content, as the edge canonicalized it. */
  fingerprint: string;
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * What a claim found. `claimed`: this request runs, and must `complete` or `release` with its `claimId`.
 * `replay`: the first request finished; its answer is given again. `mismatch`: the key was used for another request.
 * `in_flight`: the first request is still running.
 */
export type Claim =
  | { kind: 'claimed'; claimId: string }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'mismatch'; method: string; path: string }
  | { kind: 'in_flight' };

export interface IdempotencyOptions {
  /** How long a key is remembered after its first request (`IDEMPOTENCY_TTL_S`). */
  ttlMs: number;
  /** How long a running request holds its key before another may take it over (`IDEMPOTENCY_LEASE_S`). */
  leaseMs: number;
  clock: () => Date;
  /**
   * Seals stored answers at rest: they hold what the first request answered, a webhook's signing secret and drivers'
   * personal data among it, kept for a day in a table no read model exposes.
   */
  cipher: SecretCipher;
}

/** Expired keys are deleted at most this often, by whichever claim comes after the interval, a bounded number at a time. */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 1000;

interface Row {
  claim_id: string;
  method: string;
  path: string;
  fingerprint: string;
  state: 'in_flight' | 'complete';
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

/** A sealed answer opens only for its own company, key and claim: one copied to another row does not. */
const sealedFor = (r: Pick<IdempotentRequest, 'companyId' | 'key'>, claimId: string): string =>
  `idempotency:${r.companyId}:${r.key}:${claimId}`;

/**
 * The idempotency keys of POSTs and their stored answers (table `idempotency_keys`). A claim is one statement: it
 * inserts the key, or takes over a row whose time is up (expired, or a running claim whose lease lapsed, e.g. its
 * process died), and otherwise reports what holds the key. Every later write names the claim it belongs to, so a
 * request whose lease was taken over cannot overwrite the new owner's answer.
 */
export class IdempotencyStore {
  private lastSweep = 0;

  constructor(
    private readonly pool: Pool,
    private readonly options: IdempotencyOptions,
  ) {}

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  async claim(r: IdempotentRequest): Promise<Claim> {
    const now = this.options.clock();
    const claimId = randomUUID();
    const claimed = await this.pool.query(
      `INSERT INTO idempotency_keys AS k
         (company_id, key, method, path, fingerprint, claim_id, state, locked_until, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'in_flight', $7, $8, $9)
       ON CONFLICT (company_id, key) DO UPDATE
         SET method = EXCLUDED.method, path = EXCLUDED.path, fingerprint = EXCLUDED.fingerprint, claim_id = EXCLUDED.claim_id,
             state = 'in_flight', locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at,
             expires_at = EXCLUDED.expires_at, status = NULL, headers = NULL, body = NULL
         WHERE k.expires_at <= $8
            OR (k.state = 'in_flight' AND k.locked_until <= $8
                AND k.method = EXCLUDED.method AND k.path = EXCLUDED.path AND k.fingerprint = EXCLUDED.fingerprint)
       RETURNING claim_id`,
      [
        r.companyId,
        r.key,
        r.method,
        r.path,
        r.fingerprint,
        claimId,
        new Date(now.getTime() + this.options.leaseMs),
        now,
        new Date(now.getTime() + this.options.ttlMs),
      ],
    );
    this.sweepSometimes(now);
    if (claimed.rowCount === 1) return { kind: 'claimed', claimId };
    const found = await this.pool.query<Row>(
      `SELECT claim_id, method, path, fingerprint, state, status, headers, body FROM idempotency_keys WHERE company_id = $1 AND key = $2`,
      [r.companyId, r.key],
    );
    const row = found.rows[0];
    // Released (a 5xx) or swept between the two statements: the key is free again.
    if (!row) return this.claim(r);
    if (row.method !== r.method || row.path !== r.path || row.fingerprint !== r.fingerprint)
      return { kind: 'mismatch', method: row.method, path: row.path };
    if (row.state === 'in_flight') return { kind: 'in_flight' };
    let body: Buffer;
    try {
      body = row.body ? this.options.cipher.open(row.body, sealedFor(r, row.claim_id)) : Buffer.alloc(0);
    } catch (err) {
      if (!(err instanceof SecretCipherError)) throw err;
      // Sealed under a SECRETS_KEY since replaced: the answer is lost, so the key is forgotten and the retry runs again
      // (the routes that create derive their ids from the key and land on the same resource).
      await this.release(r, row.claim_id);
      return this.claim(r);
    }
    return { kind: 'replay', answer: { status: row.status ?? 200, headers: row.headers ?? {}, body } };
  }

  /** Stores the answer of a claimed request; a retry from now on replays it. */
  async complete(r: Pick<IdempotentRequest, 'companyId' | 'key'>, claimId: string, answer: StoredAnswer): Promise<void> {
    await this.pool.query(
      `UPDATE idempotency_keys SET state = 'complete', status = $4, headers = $5, body = $6
        WHERE company_id = $1 AND key = $2 AND claim_id = $3`,
      [
        r.companyId,
        r.key,
        claimId,
        answer.status,
        JSON.stringify(answer.headers),
        this.options.cipher.seal(answer.body, sealedFor(r, claimId)),
      ],
    );
  }

  /** Forgets a claimed request that stored nothing (a server error): a retry runs again. */
  async release(r: Pick<IdempotentRequest, 'companyId' | 'key'>, claimId: string): Promise<void> {
    await this.pool.query(`DELETE FROM idempotency_keys WHERE company_id = $1 AND key = $2 AND claim_id = $3`, [
      r.companyId,
      r.key,
      claimId,
    ]);
  }

  /** Deletes up to `SWEEP_BATCH` expired keys; returns how many. */
  async sweep(now = this.options.clock()): Promise<number> {
    const res = await this.pool.query(
      `DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at <= $1 LIMIT ${SWEEP_BATCH})`,
      [now],
    );
    return res.rowCount ?? 0;
  }

  private sweepSometimes(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    // Housekeeping never fails a request: a sweep that fails is tried again after the next interval.
    this.sweep(now).catch(() => undefined);
  }
}
