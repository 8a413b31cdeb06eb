-- Up Migration
-- The last TOTP time step a user's code was accepted for: a code is good once, so one overheard (or shoulder-surfed)
-- within its 30 seconds cannot open a second session.
ALTER TABLE console_credenciais ADD COLUMN totp_ultimo_passo bigint;

-- Down Migration
ALTER TABLE console_credenciais DROP COLUMN totp_ultimo_passo;
