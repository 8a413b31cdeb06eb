import { type Projector, type Sql } from '../projector';

/**
 * The batch's status from its rows: `processing` while a row is missing or pending (an emitted row whose payout is not
 * decided yet counts as pending), then `done` when any row was emitted or duplicated, `failed` when every row failed.
 */
async function recalcular(sql: Sql, batchIds: string[], at: Date): Promise<void> {
  if (batchIds.length === 0) return;
  await sql.query(
    `UPDATE rm.lotes l SET
       status = CASE WHEN s.feitas < l.total_linhas OR s.abertas > 0 THEN 'processing' WHEN s.boas > 0 THEN 'done' ELSE 'failed' END,
       concluido_em = CASE WHEN s.feitas < l.total_linhas OR s.abertas > 0 THEN NULL ELSE COALESCE(l.concluido_em, $2) END,
       updated_at = $2
     FROM (SELECT b.batch_id,
                  count(x.linha) AS feitas,
                  count(x.linha) FILTER (WHERE x.status = 'pending' OR (x.status = 'emitted' AND x.financeiro IS NULL)) AS abertas,
                  count(x.linha) FILTER (WHERE x.status IN ('emitted', 'duplicated')) AS boas
             FROM unnest($1::text[]) AS b(batch_id) LEFT JOIN rm.lote_linhas x ON x.batch_id = b.batch_id
            GROUP BY b.batch_id) s
     WHERE l.batch_id = s.batch_id`,
    [batchIds, at],
  );
}

/** Follows a counter-CT-e into the batch rows that made it; returns the batches touched. */
async function seguir(sql: Sql, cteId: string, set: string, params: unknown[], at: Date, onlyStatus: string[]): Promise<void> {
  const { rows } = await sql.query(
    `UPDATE rm.lote_linhas SET ${set}, updated_at = $2 WHERE counter_cte_id = $1 AND status = ANY($3::text[]) RETURNING batch_id`,
    [cteId, at, onlyStatus, ...params],
  );
  await recalcular(sql, [...new Set(rows.map((r) => r.batch_id as string))], at);
}

/** rm.lotes and rm.lote_linhas: the counter-CT-e batch report. */
export const loteProjector: Projector = {
  name: 'lote',
  tables: ['rm.lotes', 'rm.lote_linhas'],
  async apply(sql, event) {
    const at = event.recordedAt;
    switch (event.type) {
      case 'lote.criado': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.lotes (batch_id, company_id, solicitante_company_id, ambiente, modo, total_linhas, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'processing', $7, $7) ON CONFLICT (batch_id) DO NOTHING`,
          [d.batch_id, d.company_id, d.solicitante_company_id, d.ambiente, d.modo, d.linhas.length, at],
        );
        return;
      }
      case 'lote.linha_processada': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.lote_linhas (batch_id, linha, chave, perna, status, tipo_servico, counter_cte_id, documento_financeiro, error_code, error_message, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (batch_id, linha) DO NOTHING`,
          [d.batch_id, d.linha, d.chave, d.perna, d.status, d.tipo_servico, d.counter_cte_id, d.documento_financeiro, d.error?.code ?? null, d.error?.message ?? null, at],
        );
        await recalcular(sql, [d.batch_id], at);
        return;
      }
      case 'cte.autorizado':
        await seguir(sql, event.data.cte_id, `status = 'emitted'`, [], at, ['pending']);
        return;
      case 'cte.rejeitado':
        // The counter-CT-e stays named on the row: the refused document can be read (GET /fiscal/cte/{id}).
        await seguir(sql, event.data.cte_id, `status = 'failed', error_code = 'cte_rejeitado', error_message = $4`,
          [`the authority refused the counter-CT-e: cStat ${event.data.cstat} ${event.data.motivo}`], at, ['pending']);
        return;
      case 'cte.denegado':
        await seguir(sql, event.data.cte_id, `status = 'failed', error_code = 'cte_rejeitado', error_message = $4`,
          [`the authority denied the counter-CT-e: cStat ${event.data.protocolo.cstat} ${event.data.protocolo.motivo}`], at, ['pending']);
        return;
      case 'repasse.documento_registrado':
        await seguir(sql, event.data.cte_id, `financeiro = 'ok'`, [], at, ['emitted']);
        return;
      case 'repasse.registro_falhou':
        await seguir(sql, event.data.cte_id, `financeiro = 'failed'`, [], at, ['emitted']);
        return;
    }
  },
};
