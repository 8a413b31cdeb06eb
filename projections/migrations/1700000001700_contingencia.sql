-- Up Migration
-- The UFs whose CT-e this deployment issues through the contingency authorizer (aggregate `contingencia`): one row
-- while a UF is in contingency, none otherwise. The CT-e builder reads it; the history is the event log.
CREATE TABLE rm.contingencias (
  uf             text PRIMARY KEY,
  autorizador    text NOT NULL CHECK (autorizador IN ('SVC-RS', 'SVC-SP')),
  tp_emis        smallint NOT NULL CHECK (tp_emis IN (7, 8)),
  -- `dhCont` as the CT-e write it (`AAAA-MM-DDTHH:MM:SS-03:00`), kept as text so that it is copied, never reformatted.
  dh_cont        text NOT NULL,
  justificativa  text NOT NULL,
  ativada_por    text NOT NULL,
  ativada_em     timestamptz NOT NULL
);

-- Down Migration
DROP TABLE rm.contingencias;
