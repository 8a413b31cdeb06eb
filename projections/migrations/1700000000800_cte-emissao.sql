-- Up Migration
-- The authority's last answer about an issue (cStat and text), shown while a CT-e is in issue or after a refusal.
ALTER TABLE rm.ctes ADD COLUMN retorno jsonb;

-- Down Migration
ALTER TABLE rm.ctes DROP COLUMN retorno;
