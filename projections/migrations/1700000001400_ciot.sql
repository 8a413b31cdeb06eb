-- Up Migration
-- CIOT operations of each company: declared alone (POST /fiscal/ciot, origem 'declaracao') or anchored on an own CT-e
-- (origem 'cte'). One row per operation, from its declaration (before any provider call) to its last act. Money in
-- cents, weights in grams; the full declaration (as recorded, after rectifications) is in `declaracao`.
CREATE TABLE rm.ciots (
  ciot_id                 text PRIMARY KEY,
  company_id              text NOT NULL,
  ambiente                text NOT NULL,
  origem                  text NOT NULL,            -- 'declaracao' | 'cte'
  cte_id                  text,                     -- anchored: the own CT-e
  cte_chave               text,
  cte_sequencia           integer,                  -- 1 for the CT-e's first operation, 2 after a refusal or cancellation, ...
  referencia_externa      text,
  status                  text NOT NULL,            -- sent | registrado | retificado | recusado | bloqueado | cancelado | encerrado
  ciot                    text,                     -- 12 digits, once registered
  codigo_verificacao      text,                     -- 4 digits, once registered
  protocolo               text,                     -- the provider's protocol of the last act
  motivo_codigo           text,                     -- bloqueado: contratado_divergente | perfil_nao_coberto | provedor_indisponivel; recusado: the provider's code
  motivo                  text,                     -- the stored reason (bloqueado, recusado, or sent without verdict)
  tipo_carga              text NOT NULL,            -- lotacao | fracionada | tac_agregado
  contratado_documento    text NOT NULL,
  motorista_cpf           text NOT NULL,
  motorista_nome          text NOT NULL,
  origem_codigo_ibge      text NOT NULL,
  origem_municipio        text NOT NULL,
  origem_uf               text NOT NULL,
  destino_codigo_ibge     text NOT NULL,
  destino_municipio       text NOT NULL,
  destino_uf              text NOT NULL,
  placas                  text[] NOT NULL,
  qtd_documentos          integer NOT NULL,
  valor_frete_centavos    bigint NOT NULL,
  peso_gramas             bigint NOT NULL,
  declaracao              jsonb NOT NULL,
  tentativas_sem_veredito integer NOT NULL DEFAULT 0,
  registrado_em           timestamptz,
  viagem_iniciada_em      timestamptz,
  retificacoes            integer NOT NULL DEFAULT 0,
  cancelado_em            timestamptz,
  justificativa_cancelamento text,
  encerrado_em            timestamptz,
  peso_entregue_gramas    bigint,
  historico               jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL
);
CREATE INDEX ciots_company ON rm.ciots (company_id, created_at DESC);
CREATE INDEX ciots_cte ON rm.ciots (company_id, cte_id, cte_sequencia DESC) WHERE cte_id IS NOT NULL;
CREATE INDEX ciots_referencia ON rm.ciots (company_id, referencia_externa) WHERE referencia_externa IS NOT NULL;
CREATE INDEX ciots_numero ON rm.ciots (ciot) WHERE ciot IS NOT NULL;

-- Down Migration
DROP TABLE rm.ciots;
