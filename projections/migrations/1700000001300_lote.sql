-- Up Migration
-- Counter-CT-e batches (lote) and their rows, the batch report. A row appears when its key (or leg) is processed and
-- follows its counter-CT-e: pending → emitted on authorization, → failed on refusal or denial; `financeiro` is the
-- driver payout's registration of an emitted row (null until the payout processor decides).
CREATE TABLE rm.lotes (
  batch_id               text PRIMARY KEY,
  company_id             text NOT NULL,
  solicitante_company_id text,
  ambiente               text NOT NULL,
  modo                   text NOT NULL,
  total_linhas           integer NOT NULL,
  status                 text NOT NULL,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL,
  concluido_em           timestamptz
);
CREATE INDEX lotes_company ON rm.lotes (company_id, created_at);
CREATE INDEX lotes_solicitante ON rm.lotes (solicitante_company_id, created_at) WHERE solicitante_company_id IS NOT NULL;

CREATE TABLE rm.lote_linhas (
  batch_id             text NOT NULL,
  linha                integer NOT NULL,
  chave                text NOT NULL,
  perna                integer,
  status               text NOT NULL,
  tipo_servico         integer NOT NULL,
  counter_cte_id       text,
  documento_financeiro text,
  financeiro           text,
  error_code           text,
  error_message        text,
  updated_at           timestamptz NOT NULL,
  PRIMARY KEY (batch_id, linha)
);
-- The counter-CT-e's events find their row (a duplicated row names another batch's document and is not followed).
CREATE INDEX lote_linhas_counter_cte ON rm.lote_linhas (counter_cte_id) WHERE counter_cte_id IS NOT NULL;

-- Down Migration
DROP TABLE rm.lote_linhas;
DROP TABLE rm.lotes;
