-- Up Migration
-- Tax rules (regras de tributação): one row per live rule of a company; removing a rule deletes its row (the log
-- keeps the history). Rates and the base reduction are integer hundredths of a percentage point.
-- No uniqueness on (uf pair, tp_serv): the registry aggregate guarantees it, and a read model never refuses an event.
CREATE TABLE rm.regras_tributacao (
  company_id            text NOT NULL,
  regra_id              integer NOT NULL,
  uf_origem             text NOT NULL,
  uf_destino            text NOT NULL,
  tp_serv               smallint,
  cfop                  text,
  icms_cst              text NOT NULL,
  icms_aliquota         integer NOT NULL,
  icms_reducao_base     integer,
  ibs_cbs               jsonb,
  criada_em             timestamptz NOT NULL,
  atualizada_em         timestamptz NOT NULL,
  PRIMARY KEY (company_id, regra_id)
);
-- The applicable-rule lookup and the list filters.
CREATE INDEX regras_tributacao_rota ON rm.regras_tributacao (company_id, uf_origem, uf_destino, tp_serv);

-- Down Migration
DROP TABLE rm.regras_tributacao;
