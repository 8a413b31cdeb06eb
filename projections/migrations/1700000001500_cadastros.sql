-- Up Migration
-- Registrations (scope `cadastros`). rm.convites: one row per invitation of a carrier to onboarding. `estado` is
-- `pendente` until the invited CNPJ becomes a carrier customer (`aceito`, from company.registered/flags_changed while
-- the invitation is pending) or a new invitation of the same CNPJ records its expiry (`expirado`). A `pendente` row
-- whose `expira_em` has passed is expired too: read the state as
--   CASE WHEN estado = 'pendente' AND expira_em <= now() THEN 'expirado' ELSE estado END
-- (the API does exactly that, on the service clock).
CREATE TABLE rm.convites (
  convite_id       text PRIMARY KEY,
  company_id       text NOT NULL,
  cnpj             text NOT NULL,
  razao_social     text,
  contato_nome     text NOT NULL,
  contato_email    text NOT NULL,
  contato_telefone text,
  estado           text NOT NULL,
  enviado_em       timestamptz NOT NULL,
  expira_em        timestamptz NOT NULL,
  aceito_em        timestamptz,
  aceito_company_id text,
  expirado_em      timestamptz
);
CREATE INDEX convites_company ON rm.convites (company_id, enviado_em);
CREATE INDEX convites_cnpj_pendente ON rm.convites (cnpj) WHERE estado = 'pendente';

-- rm.agregados: the aggregate drivers (TAC-agregado) of each company, derived from the registry: one row per owner
-- document of the active vehicles registered with proprietario.tipo_proprietario 0, with the driver record that goes
-- with it (the active driver with that CPF; for a CNPJ owner, the active driver whose PIX key is that CNPJ). A view, so
-- it is always as current as rm.veiculos and rm.motoristas. The onboarding state (which also needs the regulator's
-- answer on the RNTRC) is the API's: `GET /v1/agregados`.
CREATE VIEW rm.agregados AS
SELECT a.company_id, a.documento, a.tipo_documento, a.nome, a.rntrc, a.rntrcs, a.veiculos, a.cadastrado_em,
       GREATEST(a.atualizado_em, m.atualizado_em) AS atualizado_em,
       m.id AS motorista_id
  FROM (
    SELECT company_id,
           proprietario->>'documento' AS documento,
           min(proprietario->>'tipo_documento') AS tipo_documento,
           (array_agg(proprietario->>'nome' ORDER BY atualizado_em DESC, id DESC))[1] AS nome,
           (array_agg(proprietario->>'rntrc' ORDER BY atualizado_em DESC, id DESC))[1] AS rntrc,
           array_agg(DISTINCT proprietario->>'rntrc') AS rntrcs,
           jsonb_agg(jsonb_build_object('id', id, 'placa', placa, 'tipo', tipo, 'rntrc', proprietario->>'rntrc') ORDER BY id) AS veiculos,
           min(cadastrado_em) AS cadastrado_em,
           max(atualizado_em) AS atualizado_em
      FROM rm.veiculos
     WHERE removido_em IS NULL AND proprietario IS NOT NULL AND proprietario->>'tipo_proprietario' = '0'
     GROUP BY company_id, proprietario->>'documento'
  ) a
  LEFT JOIN LATERAL (
    SELECT mo.id, mo.atualizado_em
      FROM rm.motoristas mo
     WHERE mo.company_id = a.company_id AND mo.removido_em IS NULL
       AND (mo.cpf = a.documento
            OR (a.tipo_documento = 'CNPJ' AND mo.chave_pix->>'tipo' = 'cnpj' AND mo.chave_pix->>'valor' = a.documento))
     ORDER BY (mo.cpf = a.documento) DESC, mo.id
     LIMIT 1
  ) m ON true;

-- Down Migration
DROP VIEW rm.agregados;
DROP TABLE rm.convites;
