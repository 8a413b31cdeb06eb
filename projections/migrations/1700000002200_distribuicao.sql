-- Up Migration
-- Issue 30: the company's consultation of the national distribution services (aggregate `distribuicao`, one stream
-- per company). rm.distribuicao copies, per service, what the stream's events say; a company without events has no
-- rows, and the queries answer the defaults (the environment's habilitada, NSU 000000000000000). Times are the events'
-- ISO instants; NSUs stay text (15 digits, as the services write them).
CREATE TABLE rm.distribuicao (
  company_id              text NOT NULL,
  servico                 text NOT NULL CHECK (servico IN ('cte', 'nfe')),
  habilitada              boolean,
  ultimo_nsu              text NOT NULL,
  max_nsu                 text,
  proxima_consulta        timestamptz,
  bloqueado_ate           timestamptz,
  ultimo_cstat            integer,
  ultimo_motivo           text,
  ultima_consulta_em      timestamptz,
  consulta_id             text,
  consulta_origem         text CHECK (consulta_origem IN ('agenda', 'manual')),
  consulta_solicitada_em  timestamptz,
  ultima_falha_motivo     text,
  ultima_falha_em         timestamptz,
  atualizado_em           timestamptz NOT NULL,
  PRIMARY KEY (company_id, servico)
);

COMMENT ON TABLE rm.distribuicao IS 'One row per company and distribution service (cte: CTeDistribuicaoDFe, nfe: NFeDistribuicaoDFe) once the company''s stream distribuicao-<company_id> has an event; none before (GET /v1/fiscal/distribuicao then answers the defaults). Filled by distribuicao.alterada (both services), distribuicao.consulta_solicitada, distribuicao.consultada and distribuicao.consulta_falhou.';
COMMENT ON COLUMN rm.distribuicao.company_id IS 'Company that consults (the interested party is its CNPJ).';
COMMENT ON COLUMN rm.distribuicao.servico IS 'cte (Ambiente Nacional CTeDistribuicaoDFe) or nfe (NFeDistribuicaoDFe).';
COMMENT ON COLUMN rm.distribuicao.habilitada IS 'What the company chose (distribuicao.alterada), the same in both rows; null while it never chose: then the environment''s default (true in homologação, false in produção).';
COMMENT ON COLUMN rm.distribuicao.ultimo_nsu IS 'The NSU the next consultation continues from (distNSU/ultNSU), 15 digits: the last answer''s ultNSU; 000000000000000 before any.';
COMMENT ON COLUMN rm.distribuicao.max_nsu IS 'The highest NSU the service said it holds for the company (maxNSU of the last answer), 15 digits; null before any answer.';
COMMENT ON COLUMN rm.distribuicao.proxima_consulta IS 'The earliest the service may be consulted again (the hour after 137, at once while documents remain, minutes after a failure); null before any answer.';
COMMENT ON COLUMN rm.distribuicao.bloqueado_ate IS 'End of a 656 block (consumo indevido) of the last answer; null when the last answer was no block.';
COMMENT ON COLUMN rm.distribuicao.ultimo_cstat IS 'cStat of the last answer (137 nothing new, 138 documents, 656 blocked, another rejection); null before any.';
COMMENT ON COLUMN rm.distribuicao.ultimo_motivo IS 'xMotivo of the last answer, as the service wrote it; null before any.';
COMMENT ON COLUMN rm.distribuicao.ultima_consulta_em IS 'When the last answer was recorded (distribuicao.consultada consultada_em); null before any.';
COMMENT ON COLUMN rm.distribuicao.consulta_id IS 'The consultation asked and not yet answered (distribuicao.consulta_solicitada); null when none is in progress.';
COMMENT ON COLUMN rm.distribuicao.consulta_origem IS 'Who asked the consultation in progress: agenda (the schedule) or manual (POST /v1/fiscal/distribuicao/consultas); null when none.';
COMMENT ON COLUMN rm.distribuicao.consulta_solicitada_em IS 'When the consultation in progress was asked; null when none.';
COMMENT ON COLUMN rm.distribuicao.ultima_falha_motivo IS 'Why the last consultation without an answer failed (distribuicao.consulta_falhou: timeout, channel down); null before any failure.';
COMMENT ON COLUMN rm.distribuicao.ultima_falha_em IS 'When the last consultation without an answer failed; null before any failure.';
COMMENT ON COLUMN rm.distribuicao.atualizado_em IS 'When the row last changed (the recorded time of its last event).';

-- One row per document of an answer (distribuicao.consultada documentos), whatever became of it; the bytes are in the
-- document store by sha256. An NSU is recorded once (the processor repeats a consultation after a crash).
CREATE TABLE rm.distribuicao_documentos (
  company_id   text NOT NULL,
  servico      text NOT NULL CHECK (servico IN ('cte', 'nfe')),
  nsu          text NOT NULL,
  schema       text NOT NULL,
  chave        text,
  sha256       text,
  destino      text NOT NULL CHECK (destino IN ('caixa_cte', 'nfe', 'cancelamento_cte', 'guardado', 'ilegivel')),
  erro         text,
  consulta_id  text NOT NULL,
  recebido_em  timestamptz NOT NULL,
  PRIMARY KEY (company_id, servico, nsu)
);
-- The list: newest first, then by service and NSU (its keyset order).
CREATE INDEX distribuicao_documentos_lista ON rm.distribuicao_documentos (company_id, recebido_em DESC, servico, nsu DESC);
CREATE INDEX distribuicao_documentos_chave ON rm.distribuicao_documentos (company_id, chave) WHERE chave IS NOT NULL;

COMMENT ON TABLE rm.distribuicao_documentos IS 'One row per document the national distribution delivered to a company (docZip of an answer), with where it went. Filled by distribuicao.consultada (its documentos); never changed after.';
COMMENT ON COLUMN rm.distribuicao_documentos.company_id IS 'Company the document was distributed to.';
COMMENT ON COLUMN rm.distribuicao_documentos.servico IS 'cte or nfe: the service (and NSU sequence) it came from.';
COMMENT ON COLUMN rm.distribuicao_documentos.nsu IS 'docZip/@NSU, 15 digits: unique per company and service.';
COMMENT ON COLUMN rm.distribuicao_documentos.schema IS 'docZip/@schema as the service wrote it (procCTe_v4.00.xsd, procEventoCTe_v4.00.xsd, procNFe_v4.00.xsd, resNFe_v1.01.xsd...).';
COMMENT ON COLUMN rm.distribuicao_documentos.chave IS 'The access key the document names (of the CT-e, NF-e or the event''s document); null when it names none or could not be read.';
COMMENT ON COLUMN rm.distribuicao_documentos.sha256 IS 'SHA-256 of the unzipped bytes in the document store (GET /v1/fiscal/distribuicao/documentos/{servico}/{nsu}); null for an unreadable docZip.';
COMMENT ON COLUMN rm.distribuicao_documentos.destino IS 'Where it went: caixa_cte (the CT-e inbox), nfe (the NF-e list), cancelamento_cte (cancellation of an inbox CT-e), guardado (kept only: summaries, other events, documents naming the company otherwise), ilegivel (unreadable docZip, see erro).';
COMMENT ON COLUMN rm.distribuicao_documentos.erro IS 'Why it could not be read or recorded; null when it was.';
COMMENT ON COLUMN rm.distribuicao_documentos.consulta_id IS 'The consultation whose answer brought it.';
COMMENT ON COLUMN rm.distribuicao_documentos.recebido_em IS 'When the answer was recorded (distribuicao.consultada consultada_em).';

-- Per-company analysts see only their company's rows (as migration 1810 gives every table with company_id).
DO $$
DECLARE
  t text;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas_empresa')
     AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas') THEN
    FOREACH t IN ARRAY ARRAY['distribuicao', 'distribuicao_documentos'] LOOP
      EXECUTE format('ALTER TABLE rm.%I ENABLE ROW LEVEL SECURITY', t);
      EXECUTE format('CREATE POLICY analistas ON rm.%I FOR SELECT TO frete_analistas USING (true)', t);
      EXECUTE format('CREATE POLICY analistas_empresa ON rm.%I FOR SELECT TO frete_analistas_empresa USING (%s)', t,
        'company_id IN (SELECT unnest(rm.empresas_do_analista()))');
      EXECUTE format('GRANT SELECT ON rm.%I TO frete_analistas_empresa', t);
    END LOOP;
  END IF;
END $$;

-- Down Migration
DROP TABLE rm.distribuicao_documentos;
DROP TABLE rm.distribuicao;
