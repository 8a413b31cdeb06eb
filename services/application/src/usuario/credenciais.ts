import { type Pool } from 'pg';
import { type SecretCipher } from '@frete/platform';

const aadDe = (usuarioId: string) => `usuario-totp:v1:${usuarioId}`;

export interface CredencialRow {
  usuario_id: string;
  email: string;
  company_id: string;
  senha_hash: string;
}

/**
 * The users' password hashes and TOTP secrets (table console_credenciais), never in the event log. The secrets are
 * sealed and bound to their user: a value copied to another row does not open.
 */
export class CredenciaisUsuario {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: Pick<SecretCipher, 'seal' | 'open'>,
    private readonly clock: () => Date,
  ) {}

  async porEmail(email: string): Promise<CredencialRow | null> {
    const { rows } = await this.pool.query<CredencialRow>(
      `SELECT usuario_id, email, company_id, senha_hash FROM console_credenciais WHERE email = $1`,
      [email],
    );
    return rows[0] ?? null;
  }

  /** A new user's row; one left by a creation that failed half-way is replaced (the e-mail's stream was just created). */
  async criar(c: CredencialRow): Promise<void> {
    await this.pool.query(
      `INSERT INTO console_credenciais (usuario_id, email, company_id, senha_hash, atualizado_em) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO UPDATE SET usuario_id = EXCLUDED.usuario_id, company_id = EXCLUDED.company_id,
         senha_hash = EXCLUDED.senha_hash, totp = NULL, totp_pendente = NULL, atualizado_em = EXCLUDED.atualizado_em`,
      [c.usuario_id, c.email, c.company_id, c.senha_hash, this.clock()],
    );
  }

  async trocarSenha(usuarioId: string, senhaHash: string): Promise<void> {
    await this.pool.query(`UPDATE console_credenciais SET senha_hash = $2, atualizado_em = $3 WHERE usuario_id = $1`, [
      usuarioId,
      senhaHash,
      this.clock(),
    ]);
  }

  async guardarTotpPendente(usuarioId: string, segredo: string): Promise<void> {
    await this.pool.query(`UPDATE console_credenciais SET totp_pendente = $2, atualizado_em = $3 WHERE usuario_id = $1`, [
      usuarioId,
      this.cipher.seal(Buffer.from(segredo, 'utf8'), aadDe(usuarioId)),
      this.clock(),
    ]);
  }

  /** The enabled secret, or the one shown and not yet confirmed. */
  async totp(usuarioId: string, qual: 'ativo' | 'pendente'): Promise<string | null> {
    const coluna = qual === 'ativo' ? 'totp' : 'totp_pendente';
    const { rows } = await this.pool.query<{ s: Buffer | null }>(`SELECT ${coluna} AS s FROM console_credenciais WHERE usuario_id = $1`, [
      usuarioId,
    ]);
    const sealed = rows[0]?.s;
    return sealed ? this.cipher.open(sealed, aadDe(usuarioId)).toString('utf8') : null;
  }

  /**
   * Records a TOTP step as used, if it is later than the last one used: false for a code already used (or an older one),
   * in one statement, so two API instances cannot both accept it.
   */
  async usarPasso(usuarioId: string, passo: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE console_credenciais SET totp_ultimo_passo = $2
        WHERE usuario_id = $1 AND (totp_ultimo_passo IS NULL OR totp_ultimo_passo < $2)`,
      [usuarioId, passo],
    );
    return rowCount === 1;
  }

  async confirmarTotp(usuarioId: string): Promise<void> {
    await this.pool.query(
      `UPDATE console_credenciais SET totp = totp_pendente, totp_pendente = NULL, atualizado_em = $2 WHERE usuario_id = $1`,
      [usuarioId, this.clock()],
    );
  }

  async apagarTotp(usuarioId: string): Promise<void> {
    await this.pool.query(`UPDATE console_credenciais SET totp = NULL, totp_pendente = NULL, atualizado_em = $2 WHERE usuario_id = $1`, [
      usuarioId,
      this.clock(),
    ]);
  }
}
