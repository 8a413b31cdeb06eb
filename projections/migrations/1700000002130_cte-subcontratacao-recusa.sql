-- Up Migration
-- Issue 28: a received CT-e says at receipt what a counter-CT-e of it would be refused with (the batch row's code and
-- message), decided by the same function as the row. Rows received before read it from their blocking reason, in
-- the words recusaDoBloqueio (domain/src/contra-cte/contratante.ts) gives; a rebuild writes the same.
ALTER TABLE rm.cte_subcontratacao ADD COLUMN counter_cte_refusal jsonb;
UPDATE rm.cte_subcontratacao SET counter_cte_refusal = CASE counter_cte_blocked_reason
    WHEN 'cte_proprio' THEN jsonb_build_object('code', 'cte_proprio', 'message',
      'CT-e ' || chave || ' was issued by your own company: a counter-CT-e is issued against another carrier''s CT-e')
    WHEN 'vinculado_multimodal' THEN jsonb_build_object('code', 'origem_incompativel_com_tipo', 'message',
      'the contractor''s CT-e is linked to multimodal (tpServ 4): it admits no counter-CT-e')
    WHEN 'nao_e_cte_de_carga' THEN jsonb_build_object('code', 'origem_incompativel_com_tipo', 'message',
      'the contractor''s document is not a cargo CT-e (model 57)')
    WHEN 'cte_nao_normal' THEN jsonb_build_object('code', 'origem_incompativel_com_tipo', 'message',
      'the contractor''s CT-e is a complement or an annulment, not a freight service')
    WHEN 'ambiente_homologacao' THEN jsonb_build_object('code', 'origem_incompativel_com_tipo', 'message',
      'the contractor''s CT-e was issued in homologação and this is production')
  END
  WHERE counter_cte_blocked_reason IS NOT NULL;
COMMENT ON COLUMN rm.cte_subcontratacao.counter_cte_refusal IS 'What a counter-CT-e of it would be refused with: {code, message}, code a batch row code (cte_proprio, origem_incompativel_com_tipo, cte_original_invalido); null when allowed.';
COMMENT ON COLUMN rm.cte_subcontratacao.counter_cte_blocked_reason IS 'Why not: cte_proprio, vinculado_multimodal, nao_e_cte_de_carga, cte_nao_normal, ambiente_homologacao or dados_invalidos; null when allowed.';

-- Down Migration
ALTER TABLE rm.cte_subcontratacao DROP COLUMN counter_cte_refusal;
COMMENT ON COLUMN rm.cte_subcontratacao.counter_cte_blocked_reason IS 'Why not: cte_proprio, vinculado_multimodal, nao_e_cte_de_carga, cte_nao_normal or ambiente_homologacao; null when allowed.';
