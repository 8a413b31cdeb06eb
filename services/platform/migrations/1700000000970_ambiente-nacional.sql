-- Up Migration
-- The simulated national environment (Ambiente Nacional: CTeDistribuicaoDFe, NFeDistribuicaoDFe) of the sandbox and
-- the local authority server: what it distributed to each interested party, by that party's own NSU sequence, and
-- each party's wait. Read only by services/adapters/src/distribuicao/ambiente-nacional.ts.
CREATE TABLE ambiente_nacional_documentos (
  servico        text NOT NULL CHECK (servico IN ('cte', 'nfe')),
  -- CNPJ (14) or CPF (11) of the interested party.
  interessado    text NOT NULL,
  nsu            bigint NOT NULL CHECK (nsu > 0),
  -- docZip/@schema: procCTe_v4.00.xsd, procEventoCTe_v4.00.xsd, procNFe_v4.00.xsd…
  schema         text NOT NULL,
  chave          text,
  -- The document's bytes, distributed as they are (gzip + Base64 happen at the SOAP door).
  xml            bytea NOT NULL,
  distribuido_em timestamptz NOT NULL,
  PRIMARY KEY (servico, interessado, nsu)
);

CREATE TABLE ambiente_nacional_interessados (
  servico            text NOT NULL CHECK (servico IN ('cte', 'nfe')),
  interessado        text NOT NULL,
  -- The highest NSU given to the party (its next document gets max_nsu + 1).
  max_nsu            bigint NOT NULL DEFAULT 0,
  -- The hour's wait after 137, or after an answer that reached maxNSU: a consultation before it is 656.
  espera_ate         timestamptz,
  -- The block of a 656, restarted by every consultation during it.
  bloqueio_ate       timestamptz,
  -- The ultNSU of the party's last answer (NT 2014.002 v1.14: a 656 answers it).
  ult_nsu_respondido bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (servico, interessado)
);

-- Each CT-e the simulated authority accepted, with its interested parties, so that its events reach the same parties;
-- a CT-e still in processing keeps its signed XML until it is authorized and distributed.
CREATE TABLE ambiente_nacional_ctes (
  chave        text PRIMARY KEY,
  interessados text[] NOT NULL,
  cte_assinado text,
  distribuido  boolean NOT NULL DEFAULT false
);

-- Down Migration
DROP TABLE ambiente_nacional_ctes;
DROP TABLE ambiente_nacional_interessados;
DROP TABLE ambiente_nacional_documentos;
