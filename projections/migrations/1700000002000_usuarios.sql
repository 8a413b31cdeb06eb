-- Up Migration
-- The company panel's users (aggregate `usuario`): one row per user. No password hash nor TOTP secret here (platform
-- table console_credenciais).
CREATE TABLE rm.usuarios (
  usuario_id        uuid PRIMARY KEY,
  company_id        text NOT NULL,
  email             text NOT NULL UNIQUE,
  papel             text NOT NULL,
  ativo             boolean NOT NULL,
  senha_temporaria  boolean NOT NULL,
  totp              boolean NOT NULL,
  criado_por        text NOT NULL,
  criado_em         timestamptz NOT NULL,
  ultimo_acesso_em  timestamptz,
  desativado_em     timestamptz
);
CREATE INDEX usuarios_company ON rm.usuarios (company_id, email);

COMMENT ON TABLE rm.usuarios IS 'One row per user of a company''s panel (/console). Filled by usuario.criado; usuario.senha_alterada, usuario.sessao_aberta, usuario.totp_ativado, usuario.totp_desativado, usuario.papel_alterado and usuario.desativado update it.';
COMMENT ON COLUMN rm.usuarios.usuario_id IS 'User id (UUID); events name the user as actor usuario:<id>.';
COMMENT ON COLUMN rm.usuarios.company_id IS 'Company the user belongs to.';
COMMENT ON COLUMN rm.usuarios.email IS 'Login e-mail, lower case; one user per e-mail.';
COMMENT ON COLUMN rm.usuarios.papel IS 'Role: admin, operador or leitura.';
COMMENT ON COLUMN rm.usuarios.ativo IS 'False once deactivated: the user can no longer log in.';
COMMENT ON COLUMN rm.usuarios.senha_temporaria IS 'True while the one-time password given at creation has not been changed.';
COMMENT ON COLUMN rm.usuarios.totp IS 'True while the second factor (TOTP code) is enabled.';
COMMENT ON COLUMN rm.usuarios.criado_por IS 'Who created the user: operator (the ops tool) or usuario:<id> (an admin who invited them).';
COMMENT ON COLUMN rm.usuarios.criado_em IS 'When the user was created.';
COMMENT ON COLUMN rm.usuarios.ultimo_acesso_em IS 'Last login (usuario.sessao_aberta); null before the first.';
COMMENT ON COLUMN rm.usuarios.desativado_em IS 'When the user was deactivated; null while active.';

-- Per-company analysts see only their company's users (as migration 1810 gives every table with company_id).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas_empresa')
     AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas') THEN
    ALTER TABLE rm.usuarios ENABLE ROW LEVEL SECURITY;
    CREATE POLICY analistas ON rm.usuarios FOR SELECT TO frete_analistas USING (true);
    CREATE POLICY analistas_empresa ON rm.usuarios FOR SELECT TO frete_analistas_empresa
      USING (company_id IN (SELECT unnest(rm.empresas_do_analista())));
    GRANT SELECT ON rm.usuarios TO frete_analistas_empresa;
  END IF;
END $$;

-- Down Migration
DROP TABLE rm.usuarios;
