-- Up Migration
-- Webhook delivery is operational state, not domain history: an attempt's outcome, the next try's time and the lease
-- of the dispatcher change many times a minute per delivery and mean nothing to replay, audit or fold into a decision.
-- Recording them as events would flood the log (and every projection behind it) with retries; plain tables are what a
-- queue needs (FOR UPDATE SKIP LOCKED, updates in place). The endpoints themselves are the event-sourced aggregate
-- `webhook` (read model rm.webhooks).

-- Signing secrets, sealed with the platform's SecretCipher (AES-256-GCM, SECRETS_KEY), bound by their associated data
-- to company, endpoint and version. The log carries only the version and a fingerprint.
CREATE TABLE webhook_segredos (
  webhook_id  uuid NOT NULL,
  versao      integer NOT NULL,
  company_id  text NOT NULL,
  ciphertext  bytea NOT NULL,
  criado_em   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (webhook_id, versao)
);

-- One row per endpoint × domain event × type: the webhooks processor records it (a redelivered event adds nothing),
-- the dispatcher sends it. `recurso` is the key of in-order delivery (the source event's stream): a delivery waits
-- while an earlier one of the same endpoint and resource is pending.
CREATE TABLE webhook_entregas (
  id                 uuid PRIMARY KEY,
  seq                bigserial NOT NULL,
  company_id         text NOT NULL,
  webhook_id         uuid NOT NULL,
  evento_id          text NOT NULL,
  tipo               text NOT NULL,
  recurso            text NOT NULL,
  payload            jsonb NOT NULL,
  status             text NOT NULL DEFAULT 'pendente' CHECK (status IN ('pendente', 'entregue', 'falhou')),
  tentativas         integer NOT NULL DEFAULT 0,
  criada_em          timestamptz NOT NULL,
  -- The start of the retry window (creation, or the last redelivery/re-enabling).
  janela_desde       timestamptz NOT NULL,
  proxima_em         timestamptz,
  -- A dispatcher's claim: another one does not take the row before it passes (a crash mid-send frees it then).
  bloqueada_ate      timestamptz,
  entregue_em        timestamptz,
  ultimo_status_http integer,
  ultima_resposta    text,
  ultimo_erro        text,
  ultima_duracao_ms  integer,
  UNIQUE (webhook_id, evento_id, tipo)
);
CREATE INDEX webhook_entregas_devidas ON webhook_entregas (proxima_em) WHERE status = 'pendente';
CREATE INDEX webhook_entregas_recurso ON webhook_entregas (webhook_id, recurso, seq) WHERE status = 'pendente';
CREATE INDEX webhook_entregas_lista ON webhook_entregas (webhook_id, seq DESC);

-- Every attempt, as the delivery log shows it.
CREATE TABLE webhook_tentativas (
  entrega_id   uuid NOT NULL REFERENCES webhook_entregas (id) ON DELETE CASCADE,
  numero       integer NOT NULL,
  iniciada_em  timestamptz NOT NULL,
  status_http  integer,
  resposta     text,
  erro         text,
  duracao_ms   integer NOT NULL,
  PRIMARY KEY (entrega_id, numero)
);

-- Down Migration
DROP TABLE webhook_tentativas;
DROP TABLE webhook_entregas;
DROP TABLE webhook_segredos;
