-- Up Migration
-- The driver's payout of each counter-CT-e (aggregate `repasse`). Money in integer cents (bigint); instants as
-- timestamptz; due dates as date (Brasília calendar).

-- One row per counter-CT-e that reached the financial step: registered (financeiro 'ok') or not ('failed', with the
-- reason). The batch report reads `financeiro` from here; the installment routes find a document by its counter-CT-e
-- id, its access key or its leg's financial document.
CREATE TABLE rm.repasse_documentos (
  company_id                text NOT NULL,
  cte_id                    text NOT NULL,
  chave                     text NOT NULL,
  chave_original            text NOT NULL,
  documento_financeiro      text,
  lote_id                   text,
  grupo                     text NOT NULL,
  posicao_no_grupo          integer NOT NULL,
  motorista_cpf             text NOT NULL,
  valor_centavos            bigint NOT NULL,
  regra_origem              text,
  regra_parcelas            jsonb,
  modo                      text,
  financeiro                text NOT NULL,
  financeiro_erro_codigo    text,
  financeiro_erro_mensagem  text,
  documentos_no_grupo_na_bipagem integer,
  ordem_no_grupo_na_bipagem      integer,
  registrado_em             timestamptz NOT NULL,
  bipado_em                 timestamptz,
  concluido_em              timestamptz,
  prestado_contas_em        timestamptz,
  cancelado                 boolean NOT NULL DEFAULT false,
  cancelado_em              timestamptz,
  atualizado_em             timestamptz NOT NULL,
  PRIMARY KEY (company_id, cte_id)
);
CREATE INDEX repasse_documentos_chave ON rm.repasse_documentos (company_id, chave);
CREATE INDEX repasse_documentos_financeiro ON rm.repasse_documentos (company_id, documento_financeiro) WHERE documento_financeiro IS NOT NULL;
CREATE INDEX repasse_documentos_grupo ON rm.repasse_documentos (company_id, grupo);
CREATE INDEX repasse_documentos_motorista ON rm.repasse_documentos (company_id, motorista_cpf);

-- One row per installment, from the scan on.
CREATE TABLE rm.parcelas_repasse (
  company_id                text NOT NULL,
  cte_id                    text NOT NULL,
  posicao                   integer NOT NULL,
  grupo                     text NOT NULL,
  motorista_cpf             text NOT NULL,
  percentual                numeric(5, 2) NOT NULL,
  valor_centavos            bigint NOT NULL,
  dias                      integer NOT NULL,
  situacao                  text NOT NULL,
  gerada_em                 timestamptz NOT NULL,
  liberada_por              text,
  liberada_em               timestamptz,
  vencimento                date,
  ordem_pagamento_id        text,
  pagamento_solicitado_em   timestamptz,
  paga_em                   timestamptz,
  cancelada_em              timestamptz,
  PRIMARY KEY (company_id, cte_id, posicao)
);
CREATE INDEX parcelas_repasse_situacao ON rm.parcelas_repasse (company_id, situacao);
CREATE INDEX parcelas_repasse_motorista ON rm.parcelas_repasse (company_id, motorista_cpf);

-- Down Migration
DROP TABLE rm.parcelas_repasse;
DROP TABLE rm.repasse_documentos;
