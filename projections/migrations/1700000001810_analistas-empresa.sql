-- Up Migration
-- Analysts of one company (`pnpm ops analyst-role create --company <cnpj>`): their login roles are members of the group
-- frete_analistas_empresa, which reads the read models through row-level security, and of the marker role
-- frete_empresa_<cnpj> (no privileges) that names the company. The policies apply to those two groups only: the
-- projector owns the tables (RLS does not apply to the owner) and frete_analistas keeps every row.
-- A table with company_id added later is invisible to per-company analysts until a migration gives it its policy
-- (frete_analistas_empresa has no default privileges): closed, never open. A test checks that none is forgotten.

-- The companies the session's login role is an analyst of. SECURITY DEFINER: it reads rm.companies past its own
-- policy (which calls it). session_user, not current_user: SET ROLE cannot change whose companies these are.
CREATE FUNCTION rm.empresas_do_analista() RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS $$
  SELECT coalesce(array_agg(c.company_id), '{}')
    FROM rm.companies c
   WHERE EXISTS (SELECT 1
                   FROM pg_auth_members m
                   JOIN pg_roles g ON g.oid = m.roleid
                   JOIN pg_roles u ON u.oid = m.member
                  WHERE u.rolname = session_user AND g.rolname = 'frete_empresa_' || c.cnpj)
$$;

DO $$
DECLARE
  t text;
  -- An uncorrelated subquery: computed once per statement, not once per row.
  da_empresa constant text := 'company_id IN (SELECT unnest(rm.empresas_do_analista()))';
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas_empresa') THEN
    BEGIN
      CREATE ROLE frete_analistas_empresa NOLOGIN;
    EXCEPTION
      WHEN duplicate_object OR unique_violation THEN NULL;
      WHEN insufficient_privilege THEN RAISE NOTICE 'frete_analistas_empresa not created: the migrating user lacks CREATEROLE';
    END;
  END IF;
  -- Without both groups there is no analyst to restrict: no row-level security at all.
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas_empresa')
     OR NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas') THEN
    RETURN;
  END IF;
  GRANT USAGE ON SCHEMA rm TO frete_analistas_empresa;
  -- The schema being migrated (search_path: rm, or the verifier's side schema), not 'rm' by name: a side schema built
  -- beside live read models must not reach for the live tables that later migrations added.
  FOR t IN
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped
     WHERE n.nspname = current_schema() AND c.relkind = 'r'
  LOOP
    EXECUTE format('ALTER TABLE rm.%I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY analistas ON rm.%I FOR SELECT TO frete_analistas USING (true)', t);
    EXECUTE format('CREATE POLICY analistas_empresa ON rm.%I FOR SELECT TO frete_analistas_empresa USING (%s)', t, da_empresa);
    IF t <> 'credentials' THEN
      EXECUTE format('GRANT SELECT ON rm.%I TO frete_analistas_empresa', t);
    END IF;
  END LOOP;
  GRANT SELECT (credential_id, company_id, kind, environment, scopes, client_id, hint, status, issued_at, revoked_at)
    ON rm.credentials TO frete_analistas_empresa;

  -- A batch's rows belong to the batch's company.
  ALTER TABLE rm.lote_linhas ENABLE ROW LEVEL SECURITY;
  CREATE POLICY analistas ON rm.lote_linhas FOR SELECT TO frete_analistas USING (true);
  CREATE POLICY analistas_empresa ON rm.lote_linhas FOR SELECT TO frete_analistas_empresa
    USING (batch_id IN (SELECT batch_id FROM rm.lotes WHERE company_id IN (SELECT unnest(rm.empresas_do_analista()))));
  GRANT SELECT ON rm.lote_linhas TO frete_analistas_empresa;

  -- A grant is both parties'.
  ALTER TABLE rm.autorizacoes ENABLE ROW LEVEL SECURITY;
  CREATE POLICY analistas ON rm.autorizacoes FOR SELECT TO frete_analistas USING (true);
  CREATE POLICY analistas_empresa ON rm.autorizacoes FOR SELECT TO frete_analistas_empresa
    USING (subcontratada_id IN (SELECT unnest(rm.empresas_do_analista()))
           OR contratante_id IN (SELECT unnest(rm.empresas_do_analista())));
  GRANT SELECT ON rm.autorizacoes TO frete_analistas_empresa;

  -- The deployment's contingency switches are no company's rows.
  GRANT SELECT ON rm.contingencias TO frete_analistas_empresa;

  -- The view reads its tables with the reader's rights (and so through their policies), not its owner's. Before
  -- PostgreSQL 15 a view cannot: one company's analysts then do not get it.
  IF current_setting('server_version_num')::int >= 150000 THEN
    EXECUTE 'ALTER VIEW rm.agregados SET (security_invoker = true)';
    GRANT SELECT ON rm.agregados TO frete_analistas_empresa;
  END IF;
END $$;

-- Down Migration
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN SELECT tablename FROM pg_policies WHERE schemaname = 'rm' AND policyname = 'analistas' LOOP
    EXECUTE format('DROP POLICY analistas ON rm.%I', t);
    EXECUTE format('DROP POLICY analistas_empresa ON rm.%I', t);
    EXECUTE format('ALTER TABLE rm.%I DISABLE ROW LEVEL SECURITY', t);
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas_empresa') THEN
    REVOKE ALL ON ALL TABLES IN SCHEMA rm FROM frete_analistas_empresa;
    REVOKE ALL ON SCHEMA rm FROM frete_analistas_empresa;
  END IF;
END $$;
DO $$
BEGIN
  IF current_setting('server_version_num')::int >= 150000 THEN
    EXECUTE 'ALTER VIEW rm.agregados RESET (security_invoker)';
  END IF;
END $$;
DROP FUNCTION rm.empresas_do_analista();
