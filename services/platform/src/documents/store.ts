import { createHash } from 'node:crypto';
import { type Pool } from 'pg';

export interface StoredDocument {
  sha256: string;
  content: Buffer;
  contentType: string;
}

export const sha256Of = (content: Buffer): string => createHash('sha256').update(content).digest('hex');

/**
 * Raw documents (XML, PDF) kept byte for byte, addressed by their SHA-256 (table `documents`). Content
 * addressing makes a repeated put free and safe, and lets an event name exactly the bytes it refers to. Access
 * is decided by the read models that reference a hash for one company, never by this table.
 */
export class DocumentStore {
  constructor(private readonly pool: Pool) {}

  /** Stores the bytes (before any event names them) and returns their hash. */
  async put(content: Buffer, contentType: string): Promise<string> {
    const sha256 = sha256Of(content);
    await this.pool.query(
      `INSERT INTO documents (sha256, content, content_type, size_bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING`,
      [sha256, content, contentType, content.length],
    );
    return sha256;
  }

  /** The sizes in bytes of these documents, by hash, as stored with them (one query; a missing one is absent). */
  async tamanhos(sha256s: readonly string[]): Promise<Map<string, number>> {
    if (sha256s.length === 0) return new Map();
    const { rows } = await this.pool.query<{ sha256: string; size_bytes: number }>(
      `SELECT sha256, size_bytes FROM documents WHERE sha256 = ANY($1::text[])`,
      [[...new Set(sha256s)]],
    );
    return new Map(rows.map((r) => [r.sha256, Number(r.size_bytes)]));
  }

  /** The bytes, verified against their hash; null when missing or altered (callers answer 503, retry is safe). */
  async get(sha256: string): Promise<StoredDocument | null> {
    const { rows } = await this.pool.query<{ content: Buffer; content_type: string }>(
      `SELECT content, content_type FROM documents WHERE sha256 = $1`,
      [sha256],
    );
    const row = rows[0];
    if (!row || sha256Of(row.content) !== sha256) return null;
    return { sha256, content: row.content, contentType: row.content_type };
  }
}
