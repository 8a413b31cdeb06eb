-- Up Migration
-- The integrators' webhook endpoints (aggregate `webhook`): one row per endpoint; a removed one keeps its row with
-- `removido_em`. The secret itself is not here (platform table webhook_segredos, sealed), only its version and fingerprint.
CREATE TABLE rm.webhooks (
  webhook_id         uuid PRIMARY KEY,
  company_id         text NOT NULL,
  url                text NOT NULL,
  eventos            text[] NOT NULL,
  descricao          text,
  ativo              boolean NOT NULL,
  desativado_motivo  text,
  desativado_em      timestamptz,
  segredo_versao     integer NOT NULL,
  segredo_impressao  text NOT NULL,
  criado_em          timestamptz NOT NULL,
  atualizado_em      timestamptz NOT NULL,
  removido_em        timestamptz
);
-- The webhooks processor asks, for each event, which of the company's endpoints take it.
CREATE INDEX webhooks_company ON rm.webhooks (company_id) WHERE removido_em IS NULL;

COMMENT ON TABLE rm.webhooks IS 'One row per webhook endpoint of a company; a removed endpoint keeps its row with removido_em. Filled by webhook.criado; webhook.atualizado, webhook.segredo_rotacionado, webhook.desativado, webhook.reativado and webhook.removido update it.';
COMMENT ON COLUMN rm.webhooks.webhook_id IS 'Endpoint id (UUID), the id of GET /v1/webhooks/{id}.';
COMMENT ON COLUMN rm.webhooks.company_id IS 'Company that owns the endpoint.';
COMMENT ON COLUMN rm.webhooks.url IS 'Where deliveries are POSTed.';
COMMENT ON COLUMN rm.webhooks.eventos IS 'Subscribed event types (cte.autorizado, lote.concluido, ...).';
COMMENT ON COLUMN rm.webhooks.descricao IS 'Free text of the integrator.';
COMMENT ON COLUMN rm.webhooks.ativo IS 'False once disabled (after persistent failure): nothing is delivered or recorded for it.';
COMMENT ON COLUMN rm.webhooks.desativado_motivo IS 'Why it was disabled; null while active.';
COMMENT ON COLUMN rm.webhooks.desativado_em IS 'When it was disabled; null while active.';
COMMENT ON COLUMN rm.webhooks.segredo_versao IS 'Version of the signing secret (1, then one more per rotation).';
COMMENT ON COLUMN rm.webhooks.segredo_impressao IS 'First 16 hex digits of the SHA-256 of the current secret (never the secret).';
COMMENT ON COLUMN rm.webhooks.criado_em IS 'When it was created.';
COMMENT ON COLUMN rm.webhooks.atualizado_em IS 'When it last changed.';
COMMENT ON COLUMN rm.webhooks.removido_em IS 'When it was removed; null while it exists.';

-- Per-company analysts see only their company's endpoints (as migration 1810 gives every table with company_id).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas_empresa')
     AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas') THEN
    ALTER TABLE rm.webhooks ENABLE ROW LEVEL SECURITY;
    CREATE POLICY analistas ON rm.webhooks FOR SELECT TO frete_analistas USING (true);
    CREATE POLICY analistas_empresa ON rm.webhooks FOR SELECT TO frete_analistas_empresa
      USING (company_id IN (SELECT unnest(rm.empresas_do_analista())));
    GRANT SELECT ON rm.webhooks TO frete_analistas_empresa;
  END IF;
END $$;

-- Down Migration
DROP TABLE rm.webhooks;
