-- Up Migration
-- Drafts live in rm.ctes beside the documents: `dados` holds a draft's editable data (CteDraftInput).
ALTER TABLE rm.ctes ADD COLUMN dados jsonb;

-- Down Migration
ALTER TABLE rm.ctes DROP COLUMN dados;
