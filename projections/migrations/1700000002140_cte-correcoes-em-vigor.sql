-- Up Migration
-- Issue 29: correction letters are cumulative (the authority keeps the CC-e with the highest nSeqEvento); the CT-e shows
-- the corrections in force, as the registered letter's cte.evento_registrado carries them (correcoes_em_vigor). Letters
-- registered before carried no list in their events: their rows, and a rebuild, keep the empty list.
ALTER TABLE rm.ctes ADD COLUMN correcoes_em_vigor jsonb NOT NULL DEFAULT '[]'::jsonb;
COMMENT ON COLUMN rm.ctes.correcoes_em_vigor IS 'Corrections in force (CC-e 110110): [{grupo, campo, valor, item, n_seq_evento, event_key}], from the last registered letter''s cte.evento_registrado.';
COMMENT ON TABLE rm.ctes IS 'One row per own CT-e of a company: drafts and counter-CT-e issued here (origem emissao / contra_cte) and CT-e the carrier delivered already issued (origem cte_emitido). Filled by cte.rascunho_criado, cte.contra_cte_criado, cte.emitido_recebido; followed by cte.rascunho_alterado, cte.emissao_solicitada, cte.xml_assinado, cte.autorizado, cte.rejeitado, cte.denegado, cte.resultado_pendente, cte.evento_registrado (cancellation; a correction letter''s corrections in force), cte.emitido_reenviado, cte.repassado.';

-- Down Migration
ALTER TABLE rm.ctes DROP COLUMN correcoes_em_vigor;
COMMENT ON TABLE rm.ctes IS 'One row per own CT-e of a company: drafts and counter-CT-e issued here (origem emissao / contra_cte) and CT-e the carrier delivered already issued (origem cte_emitido). Filled by cte.rascunho_criado, cte.contra_cte_criado, cte.emitido_recebido; followed by cte.rascunho_alterado, cte.emissao_solicitada, cte.xml_assinado, cte.autorizado, cte.rejeitado, cte.denegado, cte.resultado_pendente, cte.evento_registrado (cancellation), cte.emitido_reenviado, cte.repassado.';
