-- Up Migration
-- MDF-e of each company (road, model 58): the manifest's data as created, the issue, the authorization and the events.
CREATE TABLE rm.mdfes (
  mdfe_id       text PRIMARY KEY,
  company_id    text NOT NULL,
  ambiente      text NOT NULL,
  situacao      text NOT NULL,
  chave         text,
  serie         integer,
  numero        bigint,
  data_emissao  text,
  dados         jsonb NOT NULL,
  condutores    jsonb NOT NULL,
  retorno       jsonb,
  protocolo     jsonb,
  xml_sha256    text,
  eventos       jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX mdfes_company ON rm.mdfes (company_id, created_at DESC);

-- The CT-e each MDF-e carries, so that a CT-e's cancellation can see an authorized MDF-e (situacao in rm.mdfes).
CREATE TABLE rm.mdfe_ctes (
  company_id  text NOT NULL,
  mdfe_id     text NOT NULL,
  cte_id      text NOT NULL,
  chave       text NOT NULL,
  PRIMARY KEY (mdfe_id, cte_id)
);
CREATE INDEX mdfe_ctes_cte ON rm.mdfe_ctes (company_id, cte_id);
CREATE INDEX mdfe_ctes_chave ON rm.mdfe_ctes (chave);

-- Down Migration
DROP TABLE rm.mdfe_ctes;
DROP TABLE rm.mdfes;
