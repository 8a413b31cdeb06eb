-- Up Migration
-- Issue 29: correction letters are cumulative (the authority keeps the CC-e with the highest nSeqEvento); the CT-e shows
-- the corrections in force, as the registered letter's cte.evento_registrado carries them (correcoes_em_vigor). Letters
-- registered before carried no list in their events: their rows, and a rebuild, keep the empty list.
ALTER TABLE rm.ctes ADD COLUMN correcoes_em_vigor jsonb NOT NULL DEFAULT '[]'::jsonb;
COMMENT ON COLUMN rm.ctes.correcoes_em_vigor IS 'Corrections in force (CC-e 110110): [{grupo, campo, valor, item, n_seq_evento, event_key}], from the last registered letter''s cte.evento_registrado.';

-- Down Migration
ALTER TABLE rm.ctes DROP COLUMN correcoes_em_vigor;
