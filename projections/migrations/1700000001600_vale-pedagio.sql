-- Up Migration
-- The operational account's ledger and the mandatory toll passes (aggregates `conta_operacional` and `vale_pedagio`).
-- Money in integer cents (bigint); instants as timestamptz.

-- One row per movement of a company's operational account, in ledger order. `valor_centavos` is signed (credits and
-- refunds positive, debits negative) and `saldo_apos_centavos` is the balance after it, so
--   SELECT sum(valor_centavos) FROM rm.conta_operacional_movimentos WHERE company_id = $1
-- equals the last row's saldo_apos_centavos.
CREATE TABLE rm.conta_operacional_movimentos (
  company_id              text NOT NULL,
  sequencia               integer NOT NULL,
  tipo                    text NOT NULL CHECK (tipo IN ('credito', 'debito', 'estorno')),
  valor_centavos          bigint NOT NULL,
  valor_pedagio_centavos  bigint,
  taxa_centavos           bigint,
  saldo_apos_centavos     bigint NOT NULL CHECK (saldo_apos_centavos >= 0),
  referencia              text,
  origem_credito          text,
  vale_pedagio_id         text,
  motivo_estorno          text,
  registrado_em           timestamptz NOT NULL,
  event_id                text NOT NULL,
  PRIMARY KEY (company_id, sequencia)
);
CREATE INDEX conta_operacional_movimentos_vale ON rm.conta_operacional_movimentos (company_id, vale_pedagio_id) WHERE vale_pedagio_id IS NOT NULL;
CREATE INDEX conta_operacional_movimentos_data ON rm.conta_operacional_movimentos (company_id, registrado_em);

-- One row per toll pass bought.
CREATE TABLE rm.vales_pedagio (
  company_id              text NOT NULL,
  vale_pedagio_id         text NOT NULL,
  numero                  text NOT NULL,
  referencia_externa      text,
  situacao                text NOT NULL CHECK (situacao IN ('emitido', 'em_uso', 'cancelado')),
  origem_codigo_ibge      text NOT NULL,
  origem_municipio        text NOT NULL,
  origem_uf               text NOT NULL,
  destino_codigo_ibge     text NOT NULL,
  destino_municipio       text NOT NULL,
  destino_uf              text NOT NULL,
  categoria               text NOT NULL,
  eixos                   integer NOT NULL,
  placa                   text NOT NULL,
  tipo                    text NOT NULL,
  motorista_cpf           text,
  motorista_nome          text,
  cte                     text,
  mdfe                    text,
  fornecedor_cnpj         text NOT NULL,
  fornecedor_nome         text NOT NULL,
  fornecedor_simulado     boolean NOT NULL,
  pagador_cnpj            text NOT NULL,
  distancia_km            integer NOT NULL,
  quantidade_pracas       integer NOT NULL,
  pracas                  jsonb NOT NULL,
  passagens               jsonb NOT NULL DEFAULT '{}'::jsonb,
  valor_pedagio_centavos  bigint NOT NULL,
  taxa_centavos           bigint NOT NULL,
  valor_total_centavos    bigint NOT NULL,
  emitido_em              timestamptz NOT NULL,
  cancelavel_ate          timestamptz NOT NULL,
  primeira_passagem_em    timestamptz,
  cancelado_em            timestamptz,
  estornado_em            timestamptz,
  estorno_centavos        bigint,
  PRIMARY KEY (company_id, vale_pedagio_id)
);
CREATE INDEX vales_pedagio_emitido ON rm.vales_pedagio (company_id, emitido_em DESC);
CREATE INDEX vales_pedagio_placa ON rm.vales_pedagio (company_id, placa);
CREATE INDEX vales_pedagio_numero ON rm.vales_pedagio (company_id, numero);

-- Down Migration
DROP TABLE rm.vales_pedagio;
DROP TABLE rm.conta_operacional_movimentos;
