import { type Projector, type Sql } from '../projector';

/**
 * Follows a counter-CT-e into the batch row that made it (only rows in one of `onlyStatus`: a duplicated row names
 * another batch's document and is not moved by it). The batch's own status is not derived here: its decider decides
 * the end (`lote.concluido`), recorded below.
 */
async function seguir(sql: Sql, cteId: string, set: string, params: unknown[], at: Date, onlyStatus: string[]): Promise<void> {
  await sql.query(`UPDATE rm.lote_linhas SET ${set}, updated_at = $2 WHERE counter_cte_id = $1 AND status = ANY($3::text[])`, [
    cteId,
    at,
    onlyStatus,
    ...params,
  ]);
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
          [
            d.batch_id,
            d.linha,
            d.chave,
            d.perna,
            d.status,
            d.tipo_servico,
            d.counter_cte_id,
            d.documento_financeiro,
            d.error?.code ?? null,
            d.error?.message ?? null,
            at,
          ],
        );
        return;
      }
      case 'lote.concluido':
        // The batch ended as its decider decided; the first end stands (the decider records one, a replay repeats it).
        await sql.query(
          `UPDATE rm.lotes SET status = $2, concluido_em = $3, updated_at = $3 WHERE batch_id = $1 AND concluido_em IS NULL`,
          [event.data.batch_id, event.data.status, at],
        );
        return;
      case 'cte.autorizado':
        await seguir(sql, event.data.cte_id, `status = 'emitted'`, [], at, ['pending']);
        return;
      case 'cte.rejeitado':
        // The counter-CT-e stays named on the row: the refused document can be read (GET /fiscal/cte/{id}).
        await seguir(
          sql,
          event.data.cte_id,
          `status = 'failed', error_code = 'cte_rejeitado', error_message = $4`,
          [`the authority refused the counter-CT-e: cStat ${event.data.cstat} ${event.data.motivo}`],
          at,
          ['pending'],
        );
        return;
      case 'cte.denegado':
        await seguir(
          sql,
          event.data.cte_id,
          `status = 'failed', error_code = 'cte_rejeitado', error_message = $4`,
          [`the authority denied the counter-CT-e: cStat ${event.data.protocolo.cstat} ${event.data.protocolo.motivo}`],
          at,
          ['pending'],
        );
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
