-- Up Migration
-- The embedded event store. Readers order by (transaction_id, global_position) and only read events whose
-- transaction is below the oldest running one (pg_snapshot_xmin), so a slow transaction that commits after a
-- later one is never skipped.
CREATE TABLE es_events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id       text NOT NULL,
  stream_revision bigint NOT NULL,
  event_id        uuid NOT NULL UNIQUE,
  event_type      text NOT NULL,
  schema_version  integer NOT NULL,
  data            jsonb NOT NULL,
  metadata        jsonb NOT NULL,
  recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (stream_id, stream_revision)
);
CREATE INDEX es_events_commit_order ON es_events (transaction_id, global_position);
CREATE INDEX es_events_company ON es_events ((metadata->>'company_id'), transaction_id, global_position);

CREATE TABLE es_streams (
  stream_id text PRIMARY KEY,
  revision  bigint NOT NULL
);

-- Subscriptions of processors and of the Kafka relay: where each one stands.
CREATE TABLE subscription_checkpoints (
  name        text PRIMARY KEY,
  commit_pos  numeric(20) NOT NULL,
  prepare_pos numeric(20) NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Read your writes: the position of each company's last write, which its GETs wait for.
CREATE TABLE write_watermarks (
  company_id  text PRIMARY KEY,
  commit_pos  numeric(20) NOT NULL,
  prepare_pos numeric(20) NOT NULL
);

-- Raw documents (XML, PDF) kept byte for byte, addressed by their SHA-256.
CREATE TABLE documents (
  sha256       text PRIMARY KEY,
  content      bytea NOT NULL,
  content_type text NOT NULL,
  size_bytes   integer NOT NULL,
  stored_at    timestamptz NOT NULL DEFAULT now()
);

-- Secrets (certificates and their passwords), encrypted with SECRETS_KEY; never in events or read models.
CREATE TABLE secure_blobs (
  id          uuid PRIMARY KEY,
  company_id  text NOT NULL,
  purpose     text NOT NULL,
  ciphertext  bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX secure_blobs_company ON secure_blobs (company_id, purpose);

-- Keys that sign OAuth access tokens; the private half encrypted like any secret.
CREATE TABLE signing_keys (
  kid         text PRIMARY KEY,
  alg         text NOT NULL,
  public_jwk  jsonb NOT NULL,
  private_enc bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  retired_at  timestamptz
);

-- Down Migration
DROP TABLE signing_keys;
DROP TABLE secure_blobs;
DROP TABLE documents;
DROP TABLE write_watermarks;
DROP TABLE subscription_checkpoints;
DROP TABLE es_streams;
DROP TABLE es_events;
