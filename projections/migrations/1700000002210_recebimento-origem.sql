-- Up Migration
-- Issue 30: documents arrive by themselves from the national distribution (CTeDistribuicaoDFe, NFeDistribuicaoDFe).
-- Every row received before was sent by the company (or handed off): `envio` / `importacao` is what they are.
ALTER TABLE rm.cte_subcontratacao ADD COLUMN origem text NOT NULL DEFAULT 'envio';
ALTER TABLE rm.cte_subcontratacao ADD COLUMN cancelamento jsonb;
COMMENT ON COLUMN rm.cte_subcontratacao.origem IS 'How the key first reached the inbox: distribuicao (national distribution, canal distribuicao of cte_subcontratacao.recebido) or envio (upload or hand-off).';
COMMENT ON COLUMN rm.cte_subcontratacao.cancelamento IS 'The contractor''s cancellation (cte_subcontratacao.cancelado): {protocolo, cancelado_em, xml_sha256}; null while in force.';
COMMENT ON COLUMN rm.cte_subcontratacao.counter_cte_blocked_reason IS 'Why not: cte_proprio, vinculado_multimodal, nao_e_cte_de_carga, cte_nao_normal, ambiente_homologacao, dados_invalidos or cte_cancelado; null when allowed.';
COMMENT ON COLUMN rm.cte_subcontratacao.counter_cte_refusal IS 'What a counter-CT-e of it would be refused with: {code, message}, code a batch row code (cte_proprio, origem_incompativel_com_tipo, cte_original_invalido, cte_contratante_cancelado); null when allowed.';
COMMENT ON TABLE rm.cte_subcontratacao IS 'Inbox of CT-e issued by other companies and received by this one (uploaded, handed off or distributed), one row per company and key. Filled by cte_subcontratacao.recebido; cte_subcontratacao.reenviado and cte_subcontratacao.substituido (new content) update it, cte_subcontratacao.cancelado marks it cancelled; status follows subcontratacao.reservada / subcontratacao.liberada.';
ALTER TABLE rm.nfes ADD COLUMN origem text NOT NULL DEFAULT 'importacao';
COMMENT ON COLUMN rm.nfes.origem IS 'How the key first arrived: distribuicao (national distribution, canal distribuicao of nfe.importada) or importacao (files sent to POST /fiscal/nfe/importacoes).';

-- Down Migration
COMMENT ON TABLE rm.cte_subcontratacao IS 'Inbox of CT-e issued by other companies and received by this one, one row per company and key. Filled by cte_subcontratacao.recebido; cte_subcontratacao.reenviado and cte_subcontratacao.substituido (new content) update it; status follows subcontratacao.reservada / subcontratacao.liberada.';
COMMENT ON COLUMN rm.cte_subcontratacao.counter_cte_refusal IS 'What a counter-CT-e of it would be refused with: {code, message}, code a batch row code (cte_proprio, origem_incompativel_com_tipo, cte_original_invalido); null when allowed.';
COMMENT ON COLUMN rm.cte_subcontratacao.counter_cte_blocked_reason IS 'Why not: cte_proprio, vinculado_multimodal, nao_e_cte_de_carga, cte_nao_normal, ambiente_homologacao or dados_invalidos; null when allowed.';
ALTER TABLE rm.nfes DROP COLUMN origem;
ALTER TABLE rm.cte_subcontratacao DROP COLUMN cancelamento;
ALTER TABLE rm.cte_subcontratacao DROP COLUMN origem;
