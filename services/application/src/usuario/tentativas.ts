import { type Pool } from 'pg';

/** Failed logins within this window count: 5 for one e-mail, 20 from one address. */
export const JANELA_S = 15 * 60;
export const MAX_POR_EMAIL = 5;
export const MAX_POR_IP = 20;

/** Failed logins in PostgreSQL (console_tentativas): every API instance counts the same ones. */
export class TentativasLogin {
  constructor(
    private readonly pool: Pool,
    private readonly clock: () => Date,
  ) {}

  /** Seconds until the e-mail or the address may try again, or 0 when it may now. */
  async bloqueio(email: string, ip: string): Promise<number> {
    const agora = this.clock();
    const desde = new Date(agora.getTime() - JANELA_S * 1000);
    const { rows } = await this.pool.query<{ email_n: number; email_desde: Date | null; ip_n: number; ip_desde: Date | null }>(
      `SELECT (SELECT count(*)::int FROM console_tentativas WHERE email = $1 AND em > $3) AS email_n,
              (SELECT em FROM console_tentativas WHERE email = $1 AND em > $3 ORDER BY em DESC OFFSET $4 - 1 LIMIT 1) AS email_desde,
              (SELECT count(*)::int FROM console_tentativas WHERE ip = $2 AND em > $3) AS ip_n,
              (SELECT em FROM console_tentativas WHERE ip = $2 AND em > $3 ORDER BY em DESC OFFSET $5 - 1 LIMIT 1) AS ip_desde`,
      [email, ip, desde, MAX_POR_EMAIL, MAX_POR_IP],
    );
    const r = rows[0]!;
    // Free again when the failure that filled the quota leaves the window.
    const ate = [r.email_n >= MAX_POR_EMAIL ? r.email_desde : null, r.ip_n >= MAX_POR_IP ? r.ip_desde : null]
      .filter((d): d is Date => d !== null)
      .map((d) => d.getTime() + JANELA_S * 1000);
    if (ate.length === 0) return 0;
    return Math.max(1, Math.ceil((Math.max(...ate) - agora.getTime()) / 1000));
  }

  async registrarFalha(email: string, ip: string): Promise<void> {
    const agora = this.clock();
    await this.pool.query(`INSERT INTO console_tentativas (email, ip, em) VALUES ($1, $2, $3)`, [email, ip, agora]);
    // Keeps the table to the window: nothing older is ever read.
    await this.pool.query(`DELETE FROM console_tentativas WHERE em < $1`, [new Date(agora.getTime() - JANELA_S * 1000)]);
  }

  /** A login that went all the way through forgives the e-mail's earlier mistakes. */
  async limpar(email: string): Promise<void> {
    await this.pool.query(`DELETE FROM console_tentativas WHERE email = $1`, [email]);
  }
}
