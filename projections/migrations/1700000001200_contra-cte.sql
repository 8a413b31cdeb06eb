-- Up Migration
-- Counter-CT-e: an own CT-e made of a contractor's CT-e. `contra_cte` is its link (contracts ContraCteVinculo):
-- the contractor's key, mode (1a1 | pernas), service type, route, batch row, driver, plate and value in cents.
ALTER TABLE rm.ctes ADD COLUMN contra_cte jsonb;
CREATE INDEX ctes_contra_cte_chave ON rm.ctes (company_id, (contra_cte->>'chave_original')) WHERE contra_cte IS NOT NULL;
-- The carrier's pricing rule for counter-CT-e without `valor_frete`: a percentage of the contractor's vTPrest.
ALTER TABLE rm.configuracoes_fiscais ADD COLUMN percentual_frete_contra_cte numeric(5,2);

-- Every counter-CT-e that took a contractor's key, in its mode (1a1 | pernas); active until cancelled or refused.
-- The inbox status (rm.cte_subcontratacao.status) follows it.
CREATE TABLE rm.subcontratacoes (
  company_id        text NOT NULL,
  chave             text NOT NULL,
  cte_id            text NOT NULL,
  modo              text NOT NULL,
  inicio_ibge       text NOT NULL,
  fim_ibge          text NOT NULL,
  ativo             boolean NOT NULL,
  reservada_em      timestamptz NOT NULL,
  liberada_em       timestamptz,
  motivo_liberacao  text,
  paga_em           timestamptz,
  PRIMARY KEY (company_id, chave, cte_id)
);

-- Down Migration
DROP TABLE rm.subcontratacoes;
ALTER TABLE rm.configuracoes_fiscais DROP COLUMN percentual_frete_contra_cte;
DROP INDEX IF EXISTS rm.ctes_contra_cte_chave;
ALTER TABLE rm.ctes DROP COLUMN contra_cte;
