-- Up Migration
-- The panel users' secrets, kept out of the immutable event log (auditors read it): the argon2id hash of the password
-- and the TOTP secret sealed with the deployment's secrets key (AES-256-GCM, bound to the user). One row per user
-- (aggregate `usuario`); `totp_pendente` is a secret shown to the user and not yet confirmed with a code.
CREATE TABLE console_credenciais (
  usuario_id     uuid PRIMARY KEY,
  email          text NOT NULL UNIQUE,
  company_id     text NOT NULL,
  senha_hash     text NOT NULL,
  totp           bytea,
  totp_pendente  bytea,
  atualizado_em  timestamptz NOT NULL
);

-- Failed logins, shared by every API instance: 5 for one e-mail or 20 from one address within 15 minutes turn the
-- next attempts away (429) without checking the password. Operational state; old rows are pruned as new ones come.
CREATE TABLE console_tentativas (
  id     bigserial PRIMARY KEY,
  email  text NOT NULL,
  ip     text NOT NULL,
  em     timestamptz NOT NULL
);
CREATE INDEX console_tentativas_email ON console_tentativas (email, em);
CREATE INDEX console_tentativas_ip ON console_tentativas (ip, em);
CREATE INDEX console_tentativas_em ON console_tentativas (em);

-- Down Migration
DROP TABLE console_tentativas;
DROP TABLE console_credenciais;
