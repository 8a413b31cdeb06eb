-- Up Migration
-- Issue 27: a batch row is what the batch's decider recorded (lote.linha_processada, lote.linha_emitida,
-- lote.linha_rejeitada, lote.financeiro_registrado); the projector no longer follows the counter-CT-e's and the
-- payout's own events. It finds a row by its batch and row number (the primary key), so the index by counter-CT-e,
-- whose only reader that was, goes: every row written paid for it.
DROP INDEX rm.lote_linhas_counter_cte;
COMMENT ON TABLE rm.lote_linhas IS 'One row per processed row of a batch (a key, or a leg of it), as the batch''s decider recorded it. Filled by lote.linha_processada; lote.linha_emitida (emitted, recorded with the payout''s outcome), lote.linha_rejeitada (failed, with the error the batch recorded) and lote.financeiro_registrado (financeiro) update it. Company: rm.lotes.company_id.';
COMMENT ON COLUMN rm.lote_linhas.financeiro IS 'Driver payout registration of the row''s counter-CT-e: ok or failed; null until decided. The report shows it on emitted rows; an older history may have recorded it on a row still pending, emitted later.';
COMMENT ON COLUMN rm.lote_linhas.error_code IS 'Error code of a failed row (contracts error codes): the processing''s, or cte_rejeitado from lote.linha_rejeitada.';
COMMENT ON COLUMN rm.lote_linhas.error_message IS 'Error message of a failed row (English), as the batch recorded it.';
COMMENT ON COLUMN rm.lote_linhas.updated_at IS 'Recorded time of the batch''s last event about the row (timestamptz).';

-- Down Migration
CREATE INDEX lote_linhas_counter_cte ON rm.lote_linhas (counter_cte_id) WHERE counter_cte_id IS NOT NULL;
COMMENT ON TABLE rm.lote_linhas IS 'One row per processed row of a batch (a key, or a leg of it). Filled by lote.linha_processada; follows its counter-CT-e: cte.autorizado (emitted), cte.rejeitado / cte.denegado (failed); repasse.documento_registrado / repasse.registro_falhou set financeiro. Company: rm.lotes.company_id.';
COMMENT ON COLUMN rm.lote_linhas.financeiro IS 'Driver payout registration of an emitted row: ok or failed; null until decided.';
COMMENT ON COLUMN rm.lote_linhas.error_code IS 'Error code of a failed row (contracts error codes).';
COMMENT ON COLUMN rm.lote_linhas.error_message IS 'Error message of a failed row (English).';
COMMENT ON COLUMN rm.lote_linhas.updated_at IS 'Recorded time of the last change (timestamptz).';
