-- Up Migration
-- NF-e imported by each company (route /fiscal/nfe): one row per company and key. A key-only row (from a PDF)
-- has the fields the key itself gives (UF, issuer, model, series, number) and no XML; the status `vinculada` is
-- not stored: it comes from rm.cte_nfe at read time.
CREATE TABLE rm.nfes (
  company_id               text NOT NULL,
  chave                    text NOT NULL,
  xml_disponivel           boolean NOT NULL,
  modelo                   text NOT NULL,
  serie                    integer NOT NULL,
  numero                   bigint NOT NULL,
  uf                       text,
  data_emissao             text,
  ambiente_documento       text,
  natureza_operacao        text,
  emitente_documento       text NOT NULL,
  emitente_tipo_documento  text,
  emitente_nome            text,
  emitente_busca           text NOT NULL DEFAULT '',
  emitente_uf              text,
  emitente_municipio       text,
  destinatario_documento   text,
  destinatario_nome        text,
  destinatario_busca       text NOT NULL DEFAULT '',
  valor_total_centavos     bigint,
  protocolo_numero         text,
  protocolo_status         integer,
  xml_sha256               text,
  xml_arquivo              jsonb,
  pdf_sha256               text,
  pdf_arquivo              jsonb,
  nfe                      jsonb,
  recebimentos             integer NOT NULL,
  importada_em             timestamptz NOT NULL,
  atualizada_em            timestamptz NOT NULL,
  PRIMARY KEY (company_id, chave)
);
CREATE INDEX nfes_recent ON rm.nfes (company_id, importada_em DESC, chave);
CREATE INDEX nfes_emitente ON rm.nfes (company_id, emitente_documento);
CREATE INDEX nfes_destinatario ON rm.nfes (company_id, destinatario_documento);
CREATE INDEX nfes_numero ON rm.nfes (company_id, numero);

-- Down Migration
DROP TABLE rm.nfes;
