-- Up Migration
-- A toll pass may name its MDF-e by access key: that lookup must not scan all of a company's manifests.
CREATE INDEX mdfes_chave ON rm.mdfes (company_id, chave) WHERE chave IS NOT NULL;

-- Down Migration
DROP INDEX rm.mdfes_chave;
