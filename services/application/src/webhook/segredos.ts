import { createHash, randomBytes } from 'node:crypto';
import { type Pool } from 'pg';
import { type SecretCipher } from '@frete/platform';

const aadOf = (companyId: string, webhookId: string, versao: number) => `webhook-secret:v1:${companyId}:${webhookId}:${versao}`;

/** A new Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const novoSegredo = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** What the log may carry about a secret: the first 16 hex digits of its SHA-256. */
export const impressaoDe = (segredo: string): string => createHash('sha256').update(segredo).digest('hex').slice(0, 16);

/** Signing secrets sealed in `webhook_segredos`, one row per endpoint and version. */
export class SegredosWebhook {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: Pick<SecretCipher, 'seal' | 'open'>,
  ) {}

  async guardar(companyId: string, webhookId: string, versao: number, segredo: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO webhook_segredos (webhook_id, versao, company_id, ciphertext) VALUES ($1, $2, $3, $4)
       ON CONFLICT (webhook_id, versao) DO UPDATE SET ciphertext = EXCLUDED.ciphertext, company_id = EXCLUDED.company_id`,
      [webhookId, versao, companyId, this.cipher.seal(Buffer.from(segredo, 'utf8'), aadOf(companyId, webhookId, versao))],
    );
  }

  /** The secret of that version, or null when there is none (throws when it does not open). */
  async abrir(companyId: string, webhookId: string, versao: number): Promise<string | null> {
    const { rows } = await this.pool.query<{ ciphertext: Buffer }>(
      `SELECT ciphertext FROM webhook_segredos WHERE webhook_id = $1 AND versao = $2 AND company_id = $3`,
      [webhookId, versao, companyId],
    );
    if (!rows[0]) return null;
    return this.cipher.open(rows[0].ciphertext, aadOf(companyId, webhookId, versao)).toString('utf8');
  }

  /** Once a version is in force, the others are shredded (a removed endpoint: all of them). */
  async apagarOutras(webhookId: string, manter: number | null): Promise<void> {
    await this.pool.query(`DELETE FROM webhook_segredos WHERE webhook_id = $1 AND ($2::int IS NULL OR versao <> $2)`, [webhookId, manter]);
  }

  async apagar(webhookId: string, versao: number): Promise<void> {
    await this.pool.query(`DELETE FROM webhook_segredos WHERE webhook_id = $1 AND versao = $2`, [webhookId, versao]);
  }
}
