import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type Papel, type SessaoConsole } from './sessao';

/** A session lasts at most this long, and ends sooner after IDLE_S without a request. */
export const SESSAO_MAX_S = 12 * 3600;
export const SESSAO_IDLE_S = 30 * 60;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

interface SessaoRow {
  sessao_id: string;
  usuario_id: string;
  company_id: string;
  email: string;
  papel: Papel;
  last_seen_at: Date;
  razao_social: string | null;
  cnpj: string | null;
}

/** The panel's sessions in PostgreSQL (table console_sessoes): every API instance sees the same ones. */
export class SessoesConsole {
  constructor(
    private readonly pool: Pool,
    private readonly clock: () => Date,
  ) {}

  /** Opens a session; the token goes in the cookie and is never stored. */
  async abrir(usuario: Omit<SessaoConsole, 'sessao_id' | 'empresa'>): Promise<{ token: string; sessao: SessaoConsole }> {
    const token = randomBytes(32).toString('base64url');
    const sessao_id = randomUUID();
    const now = this.clock();
    await this.pool.query(
      `INSERT INTO console_sessoes (token_sha256, sessao_id, usuario_id, company_id, email, papel, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
      [
        sha256(token),
        sessao_id,
        usuario.usuario_id,
        usuario.company_id,
        usuario.email,
        usuario.papel,
        now,
        new Date(now.getTime() + SESSAO_MAX_S * 1000),
      ],
    );
    return { token, sessao: { sessao_id, ...usuario } };
  }

  /** The live session of a cookie's token, or null; a request keeps it from going idle. */
  async ler(token: string | undefined): Promise<SessaoConsole | null> {
    if (!token || token.length > 100) return null;
    const now = this.clock();
    const { rows } = await this.pool.query<SessaoRow>(
      `SELECT s.sessao_id, s.usuario_id, s.company_id, s.email, s.papel, s.last_seen_at, c.razao_social, c.cnpj
         FROM console_sessoes s LEFT JOIN rm.companies c ON c.company_id = s.company_id
        WHERE s.token_sha256 = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND s.last_seen_at > $3`,
      [sha256(token), now, new Date(now.getTime() - SESSAO_IDLE_S * 1000)],
    );
    const row = rows[0];
    if (!row) return null;
    // One write a minute at most per session, not one per request.
    if (now.getTime() - row.last_seen_at.getTime() > 60_000) {
      await this.pool.query(`UPDATE console_sessoes SET last_seen_at = $2 WHERE sessao_id = $1`, [row.sessao_id, now]);
    }
    return {
      sessao_id: row.sessao_id,
      usuario_id: row.usuario_id,
      company_id: row.company_id,
      email: row.email,
      papel: row.papel,
      ...(row.razao_social !== null && row.cnpj !== null ? { empresa: { razao_social: row.razao_social, cnpj: row.cnpj } } : {}),
    };
  }

  async encerrar(sessao_id: string): Promise<void> {
    await this.pool.query(`UPDATE console_sessoes SET revoked_at = $2 WHERE sessao_id = $1 AND revoked_at IS NULL`, [
      sessao_id,
      this.clock(),
    ]);
  }

  /** Ends every session of a user (password changed, role changed, user deactivated), but `manter`. */
  async encerrarDoUsuario(usuario_id: string, manter?: string): Promise<void> {
    await this.pool.query(
      `UPDATE console_sessoes SET revoked_at = $3 WHERE usuario_id = $1 AND revoked_at IS NULL AND sessao_id IS DISTINCT FROM $2::uuid`,
      [usuario_id, manter ?? null, this.clock()],
    );
  }
}
