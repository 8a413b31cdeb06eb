import { type Projector } from '../projector';

/** Webhook endpoints: a row per endpoint, its timestamps from the events. */
export const webhookProjector: Projector = {
  name: 'webhook',
  tables: ['rm.webhooks'],
  async apply(sql, event) {
    const at = event.recordedAt;
    switch (event.type) {
      case 'webhook.criado': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.webhooks (webhook_id, company_id, url, eventos, descricao, ativo, segredo_versao, segredo_impressao, criado_em,
             atualizado_em)
           VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8, $8) ON CONFLICT (webhook_id) DO NOTHING`,
          [d.webhook_id, d.company_id, d.url, d.eventos, d.descricao, d.segredo_versao, d.segredo_impressao, at],
        );
        return;
      }
      case 'webhook.atualizado': {
        const d = event.data;
        await sql.query(`UPDATE rm.webhooks SET url = $2, eventos = $3, descricao = $4, atualizado_em = $5 WHERE webhook_id = $1`, [
          d.webhook_id,
          d.url,
          d.eventos,
          d.descricao,
          at,
        ]);
        return;
      }
      case 'webhook.segredo_rotacionado': {
        const d = event.data;
        await sql.query(`UPDATE rm.webhooks SET segredo_versao = $2, segredo_impressao = $3, atualizado_em = $4 WHERE webhook_id = $1`, [
          d.webhook_id,
          d.segredo_versao,
          d.segredo_impressao,
          at,
        ]);
        return;
      }
      case 'webhook.removido':
        await sql.query(`UPDATE rm.webhooks SET ativo = false, removido_em = $2, atualizado_em = $2 WHERE webhook_id = $1`, [
          event.data.webhook_id,
          at,
        ]);
        return;
      case 'webhook.desativado':
        await sql.query(
          `UPDATE rm.webhooks SET ativo = false, desativado_motivo = $2, desativado_em = $3, atualizado_em = $3 WHERE webhook_id = $1`,
          [event.data.webhook_id, event.data.motivo, at],
        );
        return;
      case 'webhook.reativado':
        await sql.query(
          `UPDATE rm.webhooks SET ativo = true, desativado_motivo = NULL, desativado_em = NULL, atualizado_em = $2 WHERE webhook_id = $1`,
          [event.data.webhook_id, at],
        );
        return;
    }
  },
};
