-- Up Migration
-- The answers of POSTs sent with an `Idempotency-Key` (IETF httpapi draft): a retry with the same key and the same
-- request replays the stored answer instead of acting again. One row per company and key: another company's identical
-- key is another row. `state` is 'in_flight' while the first request runs (its claim lasts until `locked_until`, so a
-- process that died mid-request does not hold the key for ever) and 'complete' once its answer is stored.
CREATE TABLE idempotency_keys (
  company_id   text NOT NULL,
  key          text NOT NULL,
  method       text NOT NULL,
  path         text NOT NULL,
  fingerprint  text NOT NULL,
  claim_id     uuid NOT NULL,
  state        text NOT NULL CHECK (state IN ('in_flight', 'complete')),
  locked_until timestamptz NOT NULL,
  status       integer,
  headers      jsonb,
  body         bytea,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (company_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

-- Down Migration
DROP TABLE idempotency_keys;
