import { type RecordedEvent } from '@frete/contracts';
import { asProjected, type Sql } from '../projector';
import { umaLinha } from '../uma-linha';

export interface WebhookRow {
  webhook_id: string;
  company_id: string;
  url: string;
  eventos: string[];
  descricao: string | null;
  ativo: boolean;
  desativado_motivo: string | null;
  desativado_em: Date | null;
  segredo_versao: number;
  segredo_impressao: string;
  criado_em: Date;
  atualizado_em: Date;
}

const COLUMNS = `webhook_id, company_id, url, eventos, descricao, ativo, desativado_motivo, desativado_em, segredo_versao,
  segredo_impressao, criado_em, atualizado_em`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The company's endpoint (not removed), or null: another company's id is not found either. */
export async function webhookPorId(sql: Sql, companyId: string, webhookId: string): Promise<WebhookRow | null> {
  if (!UUID.test(webhookId)) return null;
  return umaLinha<WebhookRow>(sql, `SELECT ${COLUMNS} FROM rm.webhooks WHERE webhook_id = $1 AND company_id = $2 AND removido_em IS NULL`, [
    webhookId,
    companyId,
  ]);
}

/** The company's endpoints, oldest first. */
export async function webhooksList(
  sql: Sql,
  companyId: string,
  f: { page: number; per_page: number },
): Promise<{ rows: WebhookRow[]; total: number }> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM rm.webhooks WHERE company_id = $1 AND removido_em IS NULL
      ORDER BY criado_em, webhook_id LIMIT $2 OFFSET $3`,
    [companyId, f.per_page, (f.page - 1) * f.per_page],
  );
  let total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  if (rows.length === 0 && f.page > 1) {
    const c = await sql.query(`SELECT count(*) AS n FROM rm.webhooks WHERE company_id = $1 AND removido_em IS NULL`, [companyId]);
    total = Number(c.rows[0]!.n);
  }
  return { rows: rows.map(({ total: _t, ...r }) => r) as unknown as WebhookRow[], total };
}

/** The company's active endpoints subscribed to `tipo`: where a notification of that type goes. */
export async function webhooksInscritos(sql: Sql, companyId: string, tipo: string): Promise<string[]> {
  const { rows } = await sql.query(
    `SELECT webhook_id FROM rm.webhooks WHERE company_id = $1 AND ativo AND removido_em IS NULL AND $2 = ANY (eventos)`,
    [companyId, tipo],
  );
  return rows.map((r) => r.webhook_id as string);
}

/**
 * The row the projector writes, folded from the endpoint's own recorded events (its stream) instead of read from
 * rm.webhooks: what a write answers, so that the answer never waits for, nor fails on, the projection. Null before its
 * creation and after its removal, as `webhookPorId` answers.
 */
export function webhookDoLog(events: readonly RecordedEvent[]): WebhookRow | null {
  let row: WebhookRow | null = null;
  let removido = false;
  for (const recorded of events) {
    const event = asProjected(recorded);
    if (!event) continue;
    const at = event.recordedAt;
    if (event.type === 'webhook.criado') {
      const d = event.data;
      row = {
        webhook_id: d.webhook_id,
        company_id: d.company_id,
        url: d.url,
        eventos: d.eventos,
        descricao: d.descricao,
        ativo: true,
        desativado_motivo: null,
        desativado_em: null,
        segredo_versao: d.segredo_versao,
        segredo_impressao: d.segredo_impressao,
        criado_em: at,
        atualizado_em: at,
      };
      continue;
    }
    if (!row) continue;
    switch (event.type) {
      case 'webhook.atualizado':
        row = { ...row, url: event.data.url, eventos: event.data.eventos, descricao: event.data.descricao, atualizado_em: at };
        break;
      case 'webhook.segredo_rotacionado':
        row = { ...row, segredo_versao: event.data.segredo_versao, segredo_impressao: event.data.segredo_impressao, atualizado_em: at };
        break;
      case 'webhook.removido':
        removido = true;
        row = { ...row, ativo: false, atualizado_em: at };
        break;
      case 'webhook.desativado':
        row = { ...row, ativo: false, desativado_motivo: event.data.motivo, desativado_em: at, atualizado_em: at };
        break;
      case 'webhook.reativado':
        row = { ...row, ativo: true, desativado_motivo: null, desativado_em: null, atualizado_em: at };
        break;
    }
  }
  return removido ? null : row;
}
