-- Up Migration
-- Issue 26: a payment order can be withdrawn before it reaches the bank rail, when its counter-CT-e's cancellation came
-- first (repasse.pagamento_retirado): the installment is released again, without an order. Only the comments change.
COMMENT ON TABLE rm.parcelas_repasse IS 'One row per installment of a driver payout, from the scan on. Filled by repasse.parcelas_geradas; repasse.parcela_liberada, repasse.pagamento_solicitado, repasse.pagamento_retirado (the order withdrawn before it reached the bank rail: released again, no order), repasse.parcela_paga and repasse.documento_cancelado update it.';
COMMENT ON COLUMN rm.parcelas_repasse.ordem_pagamento_id IS 'Payment order id, from repasse.pagamento_solicitado; null again when repasse.pagamento_retirado withdrew it.';

-- Down Migration
COMMENT ON TABLE rm.parcelas_repasse IS 'One row per installment of a driver payout, from the scan on. Filled by repasse.parcelas_geradas; repasse.parcela_liberada, repasse.pagamento_solicitado, repasse.parcela_paga and repasse.documento_cancelado update it.';
COMMENT ON COLUMN rm.parcelas_repasse.ordem_pagamento_id IS 'Payment order id, from repasse.pagamento_solicitado.';
