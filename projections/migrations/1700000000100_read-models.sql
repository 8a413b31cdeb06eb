-- Up Migration
-- Read models live in schema rm: analysts query these tables; a rebuild drops the schema and replays the log.
CREATE TABLE rm.projection_checkpoint (
  name        text PRIMARY KEY,
  commit_pos  numeric(20) NOT NULL,
  prepare_pos numeric(20) NOT NULL,
  updated_at  timestamptz NOT NULL
);

CREATE TABLE rm.companies (
  company_id        text PRIMARY KEY,
  cnpj              text NOT NULL UNIQUE,
  razao_social      text NOT NULL,
  carrier           boolean NOT NULL,
  fiscal_ready      boolean NOT NULL,
  fiscal_production boolean NOT NULL,
  registered_at     timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);

CREATE TABLE rm.credentials (
  credential_id text PRIMARY KEY,
  company_id    text NOT NULL,
  kind          text NOT NULL,
  environment   text NOT NULL,
  scopes        text[] NOT NULL,
  secret_sha256 text NOT NULL UNIQUE,
  client_id     text UNIQUE,
  hint          text NOT NULL,
  status        text NOT NULL,
  issued_at     timestamptz NOT NULL,
  revoked_at    timestamptz
);
CREATE INDEX credentials_company ON rm.credentials (company_id);

CREATE TABLE rm.configuracoes_fiscais (
  company_id          text PRIMARY KEY,
  inscricao_estadual  text,
  regime_tributario   smallint,
  rntrc               text,
  serie_cte           integer,
  serie_mdfe          integer,
  logradouro          text,
  numero              text,
  complemento         text,
  bairro              text,
  municipio           text,
  uf                  text,
  codigo_ibge         text,
  cep                 text,
  atualizado_em       timestamptz NOT NULL
);

CREATE TABLE rm.certificados (
  company_id   text PRIMARY KEY,
  blob_id      text NOT NULL,
  sha256       text NOT NULL,
  nome_arquivo text NOT NULL,
  titular      text NOT NULL,
  cnpj         text NOT NULL,
  emissor      text NOT NULL,
  serial       text NOT NULL,
  valido_de    timestamptz NOT NULL,
  valido_ate   timestamptz NOT NULL,
  enviado_em   timestamptz NOT NULL
);

CREATE TABLE rm.company_activity (
  company_id     text PRIMARY KEY,
  events_count   bigint NOT NULL,
  last_event_at  timestamptz NOT NULL
);

-- Down Migration
DROP SCHEMA rm CASCADE;
