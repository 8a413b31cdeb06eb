-- Up Migration
-- Registry of vehicles and drivers: integer ids per company. A removed row stays (removido_em set) for audit; the
-- plate or CPF may then be registered again under a new id, hence uniqueness only among active rows (the aggregate
-- guarantees it; the index is a safety net and the lookup path).
CREATE TABLE rm.veiculos (
  company_id      text NOT NULL,
  id              integer NOT NULL,
  placa           text NOT NULL,
  renavam         text,
  rntrc           text,
  uf              text,
  tara_kg         integer,
  capacidade_kg   integer,
  capacidade_m3   integer,
  tipo_rodado     text,
  tipo_carroceria text,
  tipo            text NOT NULL,
  proprietario    jsonb,
  cadastrado_em   timestamptz NOT NULL,
  atualizado_em   timestamptz NOT NULL,
  removido_em     timestamptz,
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX veiculos_placa_ativa ON rm.veiculos (company_id, placa) WHERE removido_em IS NULL;

CREATE TABLE rm.motoristas (
  company_id       text NOT NULL,
  id               integer NOT NULL,
  cpf              text NOT NULL,
  nome             text NOT NULL,
  nome_busca       text NOT NULL,
  telefone         text,
  chave_pix        jsonb,
  repasse_modo     text NOT NULL,
  repasse_parcelas jsonb NOT NULL,
  cadastrado_em    timestamptz NOT NULL,
  atualizado_em    timestamptz NOT NULL,
  removido_em      timestamptz,
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX motoristas_cpf_ativo ON rm.motoristas (company_id, cpf) WHERE removido_em IS NULL;

-- Down Migration
DROP TABLE rm.motoristas;
DROP TABLE rm.veiculos;
