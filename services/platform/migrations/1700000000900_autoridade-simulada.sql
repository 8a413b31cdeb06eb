-- Up Migration
-- The simulated fiscal authority of the sandbox (ruling 12) keeps its own database, as a real authority does: the
-- documents (CT-e, MDF-e) it authorized, denied or still holds in processing, and the events it registered. It
-- survives restarts and is shared by every copy of the API. Nothing else reads these tables.
CREATE TABLE autoridade_simulada_documentos (
  chave               text PRIMARY KEY,
  modelo              text NOT NULL CHECK (modelo IN ('57', '58')),
  -- The authority's own key of a document number (Anexo I G157/G158: UF, emitter, model, series, number).
  c_uf                text NOT NULL,
  emitente            text NOT NULL,
  serie               integer NOT NULL,
  numero              bigint NOT NULL,
  -- 'processando': received with SIMULAR:PENDENTE, answered 105 for `consultas_restantes` more requests.
  situacao            text NOT NULL CHECK (situacao IN ('processando', 'autorizado', 'denegado', 'cancelado', 'encerrado')),
  consultas_restantes integer NOT NULL DEFAULT 0,
  -- The protocol (authorization or denial) as written in protCTe / protMDFe.
  c_stat              integer NOT NULL,
  x_motivo            text NOT NULL,
  ver_aplic           text NOT NULL,
  n_prot              text NOT NULL,
  dh_recbto           text NOT NULL,
  recebido_em         timestamptz NOT NULL,
  dig_val             text NOT NULL,
  prot_xml            text NOT NULL,
  -- CT-e: tpCTe (0 normal, 1 complementar, 3 substituto); MDF-e: null.
  tipo_documento      text,
  tp_serv             text,
  -- Keys the document refers to: the CT-e an MDF-e carries, the CT-e a substitute or complement replaces.
  referencias         text[] NOT NULL DEFAULT '{}',
  -- NF-e keys a CT-e carries (a delivery proof may only name those).
  nfes                text[] NOT NULL DEFAULT '{}',
  UNIQUE (modelo, c_uf, emitente, serie, numero)
);
CREATE INDEX autoridade_simulada_documentos_referencias ON autoridade_simulada_documentos USING gin (referencias);

CREATE TABLE autoridade_simulada_eventos (
  chave               text NOT NULL REFERENCES autoridade_simulada_documentos (chave),
  tp_evento           text NOT NULL,
  n_seq_evento        integer NOT NULL,
  id_evento           text NOT NULL,
  -- 'processando': received with SIMULAR:EVENTO-PENDENTE; 'cancelado': a delivery proof cancelled by 110181.
  situacao            text NOT NULL CHECK (situacao IN ('processando', 'registrado', 'cancelado')),
  consultas_restantes integer NOT NULL DEFAULT 0,
  c_stat              integer NOT NULL,
  x_motivo            text NOT NULL,
  x_evento            text NOT NULL,
  ver_aplic           text NOT NULL,
  c_orgao             text NOT NULL,
  n_prot              text NOT NULL,
  dh_reg_evento       text NOT NULL,
  registrado_em       timestamptz NOT NULL,
  dig_val             text NOT NULL,
  ret_xml             text NOT NULL,
  -- 110181: the protocol of the delivery proof it cancels.
  n_prot_alvo         text,
  -- The order the authority received them in.
  ordem               bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (chave, tp_evento, n_seq_evento)
);

-- Down Migration
DROP TABLE autoridade_simulada_eventos;
DROP TABLE autoridade_simulada_documentos;
