import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type SecretCipher } from './cipher';

type Sealer = Pick<SecretCipher, 'seal' | 'open'>;

/** Associated data of a blob: it opens only as the row, company and purpose it was written for. */
const aadOf = (id: string, companyId: string, purpose: string): string => `secure-blob:v1:${id}:${companyId}:${purpose}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Encrypted secrets in PostgreSQL (table secure_blobs). Events and read models carry only a blob's id; every read
 * is scoped to the company, so one company's id never opens another's blob.
 */
export class SecureBlobs {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: Sealer,
  ) {}

  async put(companyId: string, purpose: string, payload: Buffer): Promise<string> {
    const id = randomUUID();
    await this.pool.query(`INSERT INTO secure_blobs (id, company_id, purpose, ciphertext) VALUES ($1, $2, $3, $4)`, [
      id,
      companyId,
      purpose,
      this.cipher.seal(payload, aadOf(id, companyId, purpose)),
    ]);
    return id;
  }

  /**
   * The payload, or null when there is no such blob for this company (or, given `purpose`, for that purpose).
   * Throws when the stored value does not open (altered, or sealed with another key).
   */
  async get(id: string, companyId: string, purpose?: string): Promise<Buffer | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await this.pool.query<{ purpose: string; ciphertext: Buffer }>(
      `SELECT purpose, ciphertext FROM secure_blobs WHERE id = $1 AND company_id = $2 AND ($3::text IS NULL OR purpose = $3)`,
      [id, companyId, purpose ?? null],
    );
    const row = rows[0];
    if (!row) return null;
    return this.cipher.open(row.ciphertext, aadOf(id, companyId, row.purpose));
  }

  /** Deletes the company's blobs of this purpose except `keepId` (after a replacement). */
  async deleteOthers(companyId: string, purpose: string, keepId: string): Promise<void> {
    const keep = UUID.test(keepId) ? keepId : null;
    await this.pool.query(`DELETE FROM secure_blobs WHERE company_id = $1 AND purpose = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)`, [
      companyId,
      purpose,
      keep,
    ]);
  }

  /** Deletes one blob of the company (and, given `purpose`, of that purpose); false when there was none. */
  async delete(id: string, companyId: string, purpose?: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const result = await this.pool.query(
      `DELETE FROM secure_blobs WHERE id = $1 AND company_id = $2 AND ($3::text IS NULL OR purpose = $3)`,
      [id, companyId, purpose ?? null],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async deleteAll(companyId: string, purpose: string): Promise<void> {
    await this.pool.query(`DELETE FROM secure_blobs WHERE company_id = $1 AND purpose = $2`, [companyId, purpose]);
  }
}
