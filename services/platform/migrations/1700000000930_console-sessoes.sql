-- Up Migration
-- The company panel's (/console) sessions. The cookie carries a random token; only its SHA-256 is kept, so a copy of
-- this table opens nothing. Operational state like idempotency_keys, not history: who logged in and out is an event of
-- the user's stream. A session ends at `expires_at` (absolute), after `idle_s` without a request, or when revoked
-- (logout, password change, the user deactivated or their role changed).
CREATE TABLE console_sessoes (
  token_sha256  text PRIMARY KEY,
  sessao_id     uuid NOT NULL UNIQUE,
  usuario_id    text NOT NULL,
  company_id    text NOT NULL,
  email         text NOT NULL,
  papel         text NOT NULL CHECK (papel IN ('admin', 'operador', 'leitura')),
  created_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  revoked_at    timestamptz
);
CREATE INDEX console_sessoes_usuario ON console_sessoes (usuario_id);
CREATE INDEX console_sessoes_expiry ON console_sessoes (expires_at);

-- Down Migration
DROP TABLE console_sessoes;
