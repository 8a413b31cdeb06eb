-- Up Migration
-- Emission grants between carriers: one row per grant. A revoked grant stays (status revogada) for audit.
-- No uniqueness on the pair: the aggregate guarantees one active grant per pair, and a read model never refuses an event.
CREATE TABLE rm.autorizacoes (
  autorizacao_id     text PRIMARY KEY,
  subcontratada_id   text NOT NULL,
  subcontratada_cnpj text NOT NULL,
  subcontratada_nome text NOT NULL,
  contratante_id     text NOT NULL,
  contratante_cnpj   text NOT NULL,
  contratante_nome   text NOT NULL,
  status             text NOT NULL,
  concedida_em       timestamptz NOT NULL,
  revogada_em        timestamptz
);
-- Grants a subcontractor gave (and the batch check: subcontractor → contractor).
CREATE INDEX autorizacoes_subcontratada ON rm.autorizacoes (subcontratada_id, contratante_id, status);
-- Grants a contractor received.
CREATE INDEX autorizacoes_contratante ON rm.autorizacoes (contratante_id, subcontratada_id, status);

-- Down Migration
DROP TABLE rm.autorizacoes;
