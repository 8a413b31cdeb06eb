import { type Projector, type Sql } from '../projector';

/**
 * A row's later life as the batch's decider recorded it, on the row it names (`batch_id`, `linha`). Like the decider's
 * `evolve`, an outcome moves the row it names whatever it holds: the decider records an outcome only for the row's own
 * pending counter-CT-e, so nothing here decides again which rows an outcome may move.
 */
async function naLinha(sql: Sql, d: { batch_id: string; linha: number }, set: string, params: unknown[], at: Date): Promise<void> {
  await sql.query(`UPDATE rm.lote_linhas SET ${set}, updated_at = $3 WHERE batch_id = $1 AND linha = $2`, [
    d.batch_id,
    d.linha,
    at,
    ...params,
  ]);
}

/**
 * rm.lotes and rm.lote_linhas: the counter-CT-e batch report, from the batch's own events only. Every row state the
 * report shows, and the batch's end, is what the batch's decider recorded (`lote.*`); the counter-CT-e's and the
 * payout's events reach the report through it, with the failure messages it wrote.
 */
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
      case 'lote.linha_emitida':
        await naLinha(sql, event.data, `status = 'emitted'`, [], at);
        return;
      case 'lote.linha_rejeitada':
        // The counter-CT-e stays named on the row: the refused document can be read (GET /fiscal/cte/{id}).
        await naLinha(
          sql,
          event.data,
          `status = 'failed', error_code = $4, error_message = $5`,
          [event.data.error.code, event.data.error.message],
          at,
        );
        return;
      case 'lote.financeiro_registrado':
        // Kept on a row still pending too: an older history recorded it before the emission when deliveries crossed,
        // and the row shows it once emitted (the report shows `financeiro` on emitted rows only).
        await naLinha(sql, event.data, `financeiro = $4`, [event.data.financeiro], at);
        return;
      case 'lote.concluido':
        // The batch ended as its decider decided; the first end stands (the decider records one, a replay repeats it).
        await sql.query(
          `UPDATE rm.lotes SET status = $2, concluido_em = $3, updated_at = $3 WHERE batch_id = $1 AND concluido_em IS NULL`,
          [event.data.batch_id, event.data.status, at],
        );
        return;
    }
  },
};
