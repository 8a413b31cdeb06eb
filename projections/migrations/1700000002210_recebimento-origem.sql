-- Up Migration
-- Issue 30: documents arrive by themselves from the national distribution (CTeDistribuicaoDFe, NFeDistribuicaoDFe).
-- Every row received before was sent by the company (or handed off): `envio` / `importacao` is what they are.
ALTER TABLE rm.cte_subcontratacao ADD COLUMN origem text NOT NULL DEFAULT 'envio';
ALTER TABLE rm.cte_subcontratacao ADD COLUMN cancelamento jsonb;
COMMENT ON COLUMN rm.cte_subcontratacao.origem IS 'How the key first reached the inbox: distribuicao (national distribution, canal distribuicao of cte_subcontratacao.recebido) or envio (upload or hand-off).';
COMMENT ON COLUMN rm.cte_subcontratacao.cancelamento IS 'The contractor''s cancellation (cte_subcontratacao.cancelado): {protocolo, cancelado_em, xml_sha256}; null while in force.';
ALTER TABLE rm.nfes ADD COLUMN origem text NOT NULL DEFAULT 'importacao';
COMMENT ON COLUMN rm.nfes.origem IS 'How the key first arrived: distribuicao (national distribution, canal distribuicao of nfe.importada) or importacao (files sent to POST /fiscal/nfe/importacoes).';

-- Down Migration
ALTER TABLE rm.nfes DROP COLUMN origem;
ALTER TABLE rm.cte_subcontratacao DROP COLUMN cancelamento;
ALTER TABLE rm.cte_subcontratacao DROP COLUMN origem;
