-- Up Migration
-- Inbox of CT-e issued by other companies (route /fiscal/cte-subcontratacao): one row per company and key.
CREATE TABLE rm.cte_subcontratacao (
  company_id                text NOT NULL,
  chave                     text NOT NULL,
  status                    text NOT NULL,
  carrier_role              text NOT NULL,
  allows_counter_cte        boolean NOT NULL,
  counter_cte_blocked_reason text,
  received_count            integer NOT NULL,
  content_updated           boolean NOT NULL,
  first_received_at         timestamptz NOT NULL,
  last_received_at          timestamptz NOT NULL,
  last_channel              text NOT NULL,
  delivered_by              jsonb,
  xml_sha256                text NOT NULL,
  xml_size_bytes            integer NOT NULL,
  modelo                    text NOT NULL,
  versao                    text NOT NULL,
  serie                     integer NOT NULL,
  numero                    bigint NOT NULL,
  data_emissao              text NOT NULL,
  ambiente_documento        text NOT NULL,
  tipo_servico              smallint NOT NULL,
  tipo_cte                  smallint NOT NULL,
  cfop                      text NOT NULL,
  emitente_cnpj             text,
  emitente_nome             text,
  emitente_busca            text NOT NULL,
  tomador_papel             text NOT NULL,
  tomador_documento         text,
  tomador_nome              text,
  inicio_municipio          text NOT NULL,
  inicio_uf                 text NOT NULL,
  fim_municipio             text NOT NULL,
  fim_uf                    text NOT NULL,
  valor_prestacao_centavos  bigint NOT NULL,
  valor_receber_centavos    bigint NOT NULL,
  nfe_chaves                text[] NOT NULL,
  autorizado                boolean NOT NULL,
  cte                       jsonb NOT NULL,
  PRIMARY KEY (company_id, chave)
);
CREATE INDEX cte_subcontratacao_received ON rm.cte_subcontratacao (company_id, first_received_at DESC, chave);
CREATE INDEX cte_subcontratacao_emitente ON rm.cte_subcontratacao (company_id, emitente_cnpj);

-- Own CT-e (issued here or delivered through /fiscal/cte-emitidos): served by GET /fiscal/cte.
CREATE TABLE rm.ctes (
  cte_id                    text PRIMARY KEY,
  company_id                text NOT NULL,
  chave                     text,
  origem                    text NOT NULL,
  situacao                  text NOT NULL,
  modelo                    text NOT NULL,
  serie                     integer,
  numero                    bigint,
  service_type              smallint NOT NULL,
  data_emissao              text,
  emitido_em                timestamptz,
  ambiente_documento        text NOT NULL,
  tomador_papel             text,
  tomador_documento         text,
  tomador_nome              text,
  inicio_municipio          text,
  inicio_uf                 text,
  fim_municipio             text,
  fim_uf                    text,
  valor_prestacao_centavos  bigint,
  valor_receber_centavos    bigint,
  xml_sha256                text,
  xml_size_bytes            integer,
  received_count            integer NOT NULL,
  handoffs                  integer NOT NULL,
  cte                       jsonb,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  UNIQUE (company_id, chave)
);
CREATE INDEX ctes_company ON rm.ctes (company_id, created_at DESC, cte_id);

-- NF-e carried by each own CT-e: an NF-e linked here cannot be deleted.
CREATE TABLE rm.cte_nfe (
  company_id text NOT NULL,
  cte_id     text NOT NULL,
  nfe_chave  text NOT NULL,
  PRIMARY KEY (company_id, cte_id, nfe_chave)
);
CREATE INDEX cte_nfe_by_key ON rm.cte_nfe (company_id, nfe_chave);

-- Operational and financial flow of an own CT-e: the service performed, the delivery to confirm, the receivable.
CREATE TABLE rm.servicos (
  cte_id             text PRIMARY KEY,
  company_id         text NOT NULL,
  chave              text NOT NULL,
  tomador_documento  text,
  tomador_nome       text,
  inicio_municipio   text NOT NULL,
  inicio_uf          text NOT NULL,
  fim_municipio      text NOT NULL,
  fim_uf             text NOT NULL,
  valor_centavos     bigint NOT NULL,
  data_emissao       text NOT NULL,
  status             text NOT NULL,
  registrado_em      timestamptz NOT NULL
);
CREATE INDEX servicos_company ON rm.servicos (company_id, registrado_em);

CREATE TABLE rm.entregas (
  cte_id                  text PRIMARY KEY,
  company_id              text NOT NULL,
  chave                   text NOT NULL,
  destinatario_documento  text,
  destinatario_nome       text,
  municipio               text NOT NULL,
  uf                      text NOT NULL,
  status                  text NOT NULL,
  criada_em               timestamptz NOT NULL,
  confirmada_em           timestamptz
);
CREATE INDEX entregas_company ON rm.entregas (company_id, status);

CREATE TABLE rm.recebiveis (
  cte_id              text PRIMARY KEY,
  company_id          text NOT NULL,
  chave               text NOT NULL,
  devedor_documento   text,
  devedor_nome        text,
  devedor_papel       text NOT NULL,
  valor_centavos      bigint NOT NULL,
  valor_prestacao_centavos bigint NOT NULL,
  status              text NOT NULL,
  criado_em           timestamptz NOT NULL
);
CREATE INDEX recebiveis_company ON rm.recebiveis (company_id, status);

-- Down Migration
DROP TABLE rm.recebiveis;
DROP TABLE rm.entregas;
DROP TABLE rm.servicos;
DROP TABLE rm.cte_nfe;
DROP TABLE rm.ctes;
DROP TABLE rm.cte_subcontratacao;
