-- Up Migration
-- The analysts' contract (issue 15): a read-only group role over the read models, and the catalogue of every rm table
-- and column as PostgreSQL comments (docs/catalogo-read-models.md is generated from them; a test keeps both complete).
-- Units: money is always integer cents (`*_centavos`, bigint); instants are timestamptz; `date` only for calendar dates.
-- "recorded time" below is the instant the event was appended to the log (its recorded_at), never the reader's clock.

-- Roles are cluster-wide: many databases on one server (tests, several deployments) run this at the same time, so the
-- creation tolerates a concurrent one (duplicate_object, or unique_violation from pg_authid's index while both insert).
-- A service user without CREATEROLE still migrates: the role and its grants are skipped, and `pnpm ops analyst-role
-- create` says so.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas') THEN
    BEGIN
      CREATE ROLE frete_analistas NOLOGIN;
    EXCEPTION
      WHEN duplicate_object OR unique_violation THEN NULL;
      WHEN insufficient_privilege THEN RAISE NOTICE 'frete_analistas not created: the migrating user lacks CREATEROLE';
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas') THEN
    GRANT USAGE ON SCHEMA rm TO frete_analistas;
    GRANT SELECT ON ALL TABLES IN SCHEMA rm TO frete_analistas;
    -- Bookkeeping, not read models.
    REVOKE ALL ON rm.projection_checkpoint, rm.pgmigrations_rm FROM frete_analistas;
    -- The secret's hash stays with the service: every other column of a credential is readable.
    REVOKE ALL ON rm.credentials FROM frete_analistas;
    GRANT SELECT (credential_id, company_id, kind, environment, scopes, client_id, hint, status, issued_at, revoked_at)
      ON rm.credentials TO frete_analistas;
    -- Read models added by later migrations (of the same migrating user) are readable without a grant of their own.
    ALTER DEFAULT PRIVILEGES IN SCHEMA rm GRANT SELECT ON TABLES TO frete_analistas;
  END IF;
END $$;

-- Bookkeeping ----------------------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.pgmigrations_rm IS 'node-pg-migrate''s record of the read-model migrations applied (one row per migration file). Not for analysts.';
COMMENT ON COLUMN rm.pgmigrations_rm.id IS 'Serial id of the application of a migration.';
COMMENT ON COLUMN rm.pgmigrations_rm.name IS 'Migration file name without extension (e.g. 1700000001800_analistas).';
COMMENT ON COLUMN rm.pgmigrations_rm.run_on IS 'When it was applied (node-pg-migrate''s column: timestamp without time zone, server local time).';

COMMENT ON TABLE rm.projection_checkpoint IS 'One row per projection runner: the last log position applied to the read models, written in the same transaction as the rows. Not for analysts.';
COMMENT ON COLUMN rm.projection_checkpoint.name IS 'Runner name.';
COMMENT ON COLUMN rm.projection_checkpoint.commit_pos IS 'Commit position of the last event applied (a log position, not a quantity).';
COMMENT ON COLUMN rm.projection_checkpoint.prepare_pos IS 'Prepare position of the last event applied (a log position).';
COMMENT ON COLUMN rm.projection_checkpoint.updated_at IS 'When the checkpoint last moved (timestamptz, runner clock).';

-- Companies and access -------------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.companies IS 'One row per company (customer) of this deployment. Filled by company.registered; changed by company.flags_changed.';
COMMENT ON COLUMN rm.companies.company_id IS 'Company id (the tenant key: company_id in every other table).';
COMMENT ON COLUMN rm.companies.cnpj IS 'CNPJ, 14 digits without punctuation.';
COMMENT ON COLUMN rm.companies.razao_social IS 'Legal name.';
COMMENT ON COLUMN rm.companies.carrier IS 'Whether the company is a carrier (transportadora) customer. company.registered, company.flags_changed.';
COMMENT ON COLUMN rm.companies.fiscal_ready IS 'Whether it may issue fiscal documents. company.registered, company.flags_changed.';
COMMENT ON COLUMN rm.companies.fiscal_production IS 'Whether its documents go to the production environment (else homologação). company.registered, company.flags_changed.';
COMMENT ON COLUMN rm.companies.registered_at IS 'Recorded time of company.registered (timestamptz).';
COMMENT ON COLUMN rm.companies.updated_at IS 'Recorded time of the last company.registered or company.flags_changed (timestamptz).';

COMMENT ON TABLE rm.credentials IS 'One row per API credential (API key or OAuth client) issued to a company. Filled by credential.issued; credential.revoked revokes it. Analysts read every column but secret_sha256.';
COMMENT ON COLUMN rm.credentials.credential_id IS 'Credential id.';
COMMENT ON COLUMN rm.credentials.company_id IS 'Company the credential acts for (rm.companies).';
COMMENT ON COLUMN rm.credentials.kind IS 'api-key or oauth.';
COMMENT ON COLUMN rm.credentials.environment IS 'Environment the credential works in (producao or homologacao).';
COMMENT ON COLUMN rm.credentials.scopes IS 'Scopes granted (fiscal, operacao, cadastros, consultas, ...).';
COMMENT ON COLUMN rm.credentials.secret_sha256 IS 'SHA-256 (hex) of the key or client secret, for authentication. Not granted to analysts.';
COMMENT ON COLUMN rm.credentials.client_id IS 'OAuth client id (public); null for an API key.';
COMMENT ON COLUMN rm.credentials.hint IS 'First characters of the API key, or the OAuth client id, for people to tell credentials apart (not enough to authenticate).';
COMMENT ON COLUMN rm.credentials.status IS 'active or revoked (credential.revoked).';
COMMENT ON COLUMN rm.credentials.issued_at IS 'Recorded time of credential.issued (timestamptz).';
COMMENT ON COLUMN rm.credentials.revoked_at IS 'Recorded time of credential.revoked (timestamptz); null while active.';

COMMENT ON TABLE rm.company_activity IS 'One row per company with events: how many events of its history were projected and when the last was recorded. Filled by every event whose metadata names a company.';
COMMENT ON COLUMN rm.company_activity.company_id IS 'Company id (rm.companies).';
COMMENT ON COLUMN rm.company_activity.events_count IS 'Number of events of the company in the log (count).';
COMMENT ON COLUMN rm.company_activity.last_event_at IS 'Recorded time of its latest event (timestamptz).';

COMMENT ON TABLE rm.configuracoes_fiscais IS 'One row per company that set its fiscal configuration. Filled by configuracao.atualizada (each event sets only the fields it changes).';
COMMENT ON COLUMN rm.configuracoes_fiscais.company_id IS 'Company id (rm.companies).';
COMMENT ON COLUMN rm.configuracoes_fiscais.inscricao_estadual IS 'State registration (IE), digits as given.';
COMMENT ON COLUMN rm.configuracoes_fiscais.regime_tributario IS 'Tax regime code (CRT: 1 Simples Nacional, 2 Simples excess, 3 normal, 4 MEI).';
COMMENT ON COLUMN rm.configuracoes_fiscais.rntrc IS 'Carrier''s RNTRC (ANTT registry number).';
COMMENT ON COLUMN rm.configuracoes_fiscais.serie_cte IS 'Default CT-e series.';
COMMENT ON COLUMN rm.configuracoes_fiscais.serie_mdfe IS 'Default MDF-e series.';
COMMENT ON COLUMN rm.configuracoes_fiscais.logradouro IS 'Issuer address: street.';
COMMENT ON COLUMN rm.configuracoes_fiscais.numero IS 'Issuer address: number (text).';
COMMENT ON COLUMN rm.configuracoes_fiscais.complemento IS 'Issuer address: complement.';
COMMENT ON COLUMN rm.configuracoes_fiscais.bairro IS 'Issuer address: district.';
COMMENT ON COLUMN rm.configuracoes_fiscais.municipio IS 'Issuer address: municipality name.';
COMMENT ON COLUMN rm.configuracoes_fiscais.uf IS 'Issuer address: UF (two letters).';
COMMENT ON COLUMN rm.configuracoes_fiscais.codigo_ibge IS 'Issuer address: IBGE municipality code (7 digits).';
COMMENT ON COLUMN rm.configuracoes_fiscais.cep IS 'Issuer address: CEP, 8 digits.';
COMMENT ON COLUMN rm.configuracoes_fiscais.atualizado_em IS 'Recorded time of the last configuracao.atualizada (timestamptz).';
COMMENT ON COLUMN rm.configuracoes_fiscais.percentual_frete_contra_cte IS 'Pricing rule of counter-CT-e without a freight value: percentage (0–100, two decimals) of the contractor''s vTPrest. A percentage, not money.';

COMMENT ON TABLE rm.certificados IS 'One row per company with an A1 certificate on file: the current one. Filled by certificado.enviado (replaces); certificado.removido deletes it. The file itself is in the encrypted store, not here.';
COMMENT ON COLUMN rm.certificados.company_id IS 'Company id (rm.companies).';
COMMENT ON COLUMN rm.certificados.blob_id IS 'Id of the encrypted PKCS#12 in the secure store (not readable by analysts).';
COMMENT ON COLUMN rm.certificados.sha256 IS 'SHA-256 (hex) of the uploaded file.';
COMMENT ON COLUMN rm.certificados.nome_arquivo IS 'Uploaded file name.';
COMMENT ON COLUMN rm.certificados.titular IS 'Certificate subject (holder) name.';
COMMENT ON COLUMN rm.certificados.cnpj IS 'CNPJ in the certificate, 14 digits.';
COMMENT ON COLUMN rm.certificados.emissor IS 'Issuing CA name.';
COMMENT ON COLUMN rm.certificados.serial IS 'Certificate serial number (hex).';
COMMENT ON COLUMN rm.certificados.valido_de IS 'Start of validity (timestamptz).';
COMMENT ON COLUMN rm.certificados.valido_ate IS 'End of validity (timestamptz).';
COMMENT ON COLUMN rm.certificados.enviado_em IS 'Recorded time of certificado.enviado (timestamptz).';

COMMENT ON TABLE rm.autorizacoes IS 'One row per emission grant: a subcontractor (subcontratada) lets a contractor (contratante) request counter-CT-e in its name. Filled by autorizacao.concedida; autorizacao.revogada keeps the row with status revogada.';
COMMENT ON COLUMN rm.autorizacoes.autorizacao_id IS 'Grant id.';
COMMENT ON COLUMN rm.autorizacoes.subcontratada_id IS 'Company id of the subcontractor that grants (rm.companies).';
COMMENT ON COLUMN rm.autorizacoes.subcontratada_cnpj IS 'Its CNPJ, 14 digits.';
COMMENT ON COLUMN rm.autorizacoes.subcontratada_nome IS 'Its legal name at the grant.';
COMMENT ON COLUMN rm.autorizacoes.contratante_id IS 'Company id of the contractor that receives the grant (rm.companies).';
COMMENT ON COLUMN rm.autorizacoes.contratante_cnpj IS 'Its CNPJ, 14 digits.';
COMMENT ON COLUMN rm.autorizacoes.contratante_nome IS 'Its legal name at the grant.';
COMMENT ON COLUMN rm.autorizacoes.status IS 'ativa or revogada.';
COMMENT ON COLUMN rm.autorizacoes.concedida_em IS 'Recorded time of autorizacao.concedida (timestamptz).';
COMMENT ON COLUMN rm.autorizacoes.revogada_em IS 'Recorded time of autorizacao.revogada (timestamptz); null while active.';

COMMENT ON TABLE rm.convites IS 'One row per invitation of a carrier to onboarding. Filled by convite.enviado; convite.expirado expires it; company.registered / company.flags_changed (carrier) accept the pending ones of that CNPJ. A pendente row past expira_em is expired too.';
COMMENT ON COLUMN rm.convites.convite_id IS 'Invitation id.';
COMMENT ON COLUMN rm.convites.company_id IS 'Company that invited (rm.companies).';
COMMENT ON COLUMN rm.convites.cnpj IS 'Invited CNPJ, 14 digits.';
COMMENT ON COLUMN rm.convites.razao_social IS 'Invited legal name, when given.';
COMMENT ON COLUMN rm.convites.contato_nome IS 'Contact person''s name.';
COMMENT ON COLUMN rm.convites.contato_email IS 'Contact e-mail.';
COMMENT ON COLUMN rm.convites.contato_telefone IS 'Contact phone, when given.';
COMMENT ON COLUMN rm.convites.estado IS 'pendente, aceito or expirado (read pendente with expira_em <= now() as expirado).';
COMMENT ON COLUMN rm.convites.enviado_em IS 'When the invitation was sent (timestamptz, from convite.enviado).';
COMMENT ON COLUMN rm.convites.expira_em IS 'When it expires (timestamptz, from convite.enviado).';
COMMENT ON COLUMN rm.convites.aceito_em IS 'Recorded time of the company.registered / company.flags_changed that accepted it (timestamptz).';
COMMENT ON COLUMN rm.convites.aceito_company_id IS 'Company id the invited CNPJ became (rm.companies).';
COMMENT ON COLUMN rm.convites.expirado_em IS 'When it was expired (timestamptz, from convite.expirado).';

COMMENT ON TABLE rm.contingencias IS 'One row per UF whose CT-e go to the contingency authorizer (SVC), none otherwise. Filled by contingencia.ativada; contingencia.desativada deletes it. Deployment-wide (no company).';
COMMENT ON COLUMN rm.contingencias.uf IS 'UF (two letters) in contingency.';
COMMENT ON COLUMN rm.contingencias.autorizador IS 'SVC-RS or SVC-SP.';
COMMENT ON COLUMN rm.contingencias.tp_emis IS 'CT-e tpEmis for it: 7 (SVC-RS) or 8 (SVC-SP).';
COMMENT ON COLUMN rm.contingencias.dh_cont IS 'dhCont exactly as the CT-e write it (text AAAA-MM-DDTHH:MM:SS-03:00, with its UTC offset); ativada_em is the same moment as timestamptz.';
COMMENT ON COLUMN rm.contingencias.justificativa IS 'Operator''s justification (15 to 255 characters), written in the CT-e.';
COMMENT ON COLUMN rm.contingencias.ativada_por IS 'Actor of contingencia.ativada (event metadata).';
COMMENT ON COLUMN rm.contingencias.ativada_em IS 'Recorded time of contingencia.ativada (timestamptz).';

-- CT-e ------------------------------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.ctes IS 'One row per own CT-e of a company: drafts and counter-CT-e issued here (origem emissao / contra_cte) and CT-e the carrier delivered already issued (origem cte_emitido). Filled by cte.rascunho_criado, cte.contra_cte_criado, cte.emitido_recebido; followed by cte.rascunho_alterado, cte.emissao_solicitada, cte.xml_assinado, cte.autorizado, cte.rejeitado, cte.denegado, cte.resultado_pendente, cte.evento_registrado (cancellation), cte.emitido_reenviado, cte.repassado.';
COMMENT ON COLUMN rm.ctes.cte_id IS 'CT-e id (the document''s id in the API).';
COMMENT ON COLUMN rm.ctes.company_id IS 'Issuing company (rm.companies).';
COMMENT ON COLUMN rm.ctes.chave IS 'Access key, 44 digits; null for a draft, and again after a refusal (the key is given back). cte.xml_assinado, cte.autorizado, cte.emitido_recebido.';
COMMENT ON COLUMN rm.ctes.origem IS 'emissao (draft issued here), contra_cte (counter-CT-e issued here) or cte_emitido (delivered already issued).';
COMMENT ON COLUMN rm.ctes.situacao IS 'rascunho, em_processamento, autorizado, rejeitado, denegado or cancelado (or the situation the delivered CT-e came with).';
COMMENT ON COLUMN rm.ctes.modelo IS 'Fiscal model: 57 (CT-e) or 67 (CT-e OS).';
COMMENT ON COLUMN rm.ctes.serie IS 'Series (cte.emissao_solicitada, cte.xml_assinado).';
COMMENT ON COLUMN rm.ctes.numero IS 'Number within the series (cte.xml_assinado, cte.emitido_recebido).';
COMMENT ON COLUMN rm.ctes.service_type IS 'tpServ: 0 normal, 1 subcontratação, 2 redespacho, 3 redespacho intermediário, 4 serviço vinculado a multimodal.';
COMMENT ON COLUMN rm.ctes.data_emissao IS 'dhEmi exactly as written in the XML (text, ISO 8601 with its UTC offset); emitido_em is the same instant as timestamptz.';
COMMENT ON COLUMN rm.ctes.emitido_em IS 'Issue instant (dhEmi) as timestamptz; null for a draft, or when dhEmi could not be read. cte.xml_assinado, cte.emitido_recebido.';
COMMENT ON COLUMN rm.ctes.ambiente_documento IS 'producao or homologacao.';
COMMENT ON COLUMN rm.ctes.tomador_papel IS 'Who the taker is: remetente, expedidor, recebedor, destinatario or outros. cte.autorizado, cte.emitido_recebido.';
COMMENT ON COLUMN rm.ctes.tomador_documento IS 'Taker''s CNPJ or CPF (digits).';
COMMENT ON COLUMN rm.ctes.tomador_nome IS 'Taker''s name.';
COMMENT ON COLUMN rm.ctes.inicio_municipio IS 'Municipality name where the service starts.';
COMMENT ON COLUMN rm.ctes.inicio_uf IS 'UF where the service starts.';
COMMENT ON COLUMN rm.ctes.fim_municipio IS 'Municipality name where the service ends.';
COMMENT ON COLUMN rm.ctes.fim_uf IS 'UF where the service ends.';
COMMENT ON COLUMN rm.ctes.valor_prestacao_centavos IS 'vTPrest, total service value, in cents (bigint). cte.autorizado, cte.emitido_recebido.';
COMMENT ON COLUMN rm.ctes.valor_receber_centavos IS 'vRec, amount to receive, in cents (bigint). cte.autorizado, cte.emitido_recebido.';
COMMENT ON COLUMN rm.ctes.xml_sha256 IS 'SHA-256 (hex) of the authorized XML as archived.';
COMMENT ON COLUMN rm.ctes.xml_size_bytes IS 'Size of the delivered XML in bytes (cte.emitido_recebido).';
COMMENT ON COLUMN rm.ctes.received_count IS 'How many times the carrier delivered this CT-e (count; 0 for those issued here). cte.emitido_recebido, cte.emitido_reenviado.';
COMMENT ON COLUMN rm.ctes.handoffs IS 'How many times it was handed to another company''s inbox (count). cte.repassado.';
COMMENT ON COLUMN rm.ctes.cte IS 'Everything read from the XML (contracts CteLido, JSON; money inside in cents).';
COMMENT ON COLUMN rm.ctes.created_at IS 'Recorded time of the event that created the row (timestamptz).';
COMMENT ON COLUMN rm.ctes.updated_at IS 'Recorded time of the last event that changed the row (timestamptz).';
COMMENT ON COLUMN rm.ctes.dados IS 'A draft''s editable data (contracts CteDraftInput, JSON; money in cents). cte.rascunho_criado, cte.rascunho_alterado, cte.contra_cte_criado.';
COMMENT ON COLUMN rm.ctes.retorno IS 'The authority''s last answer, JSON {cstat, motivo} (cstat null while without verdict). cte.autorizado, cte.rejeitado, cte.denegado, cte.resultado_pendente, cte.evento_registrado.';
COMMENT ON COLUMN rm.ctes.contra_cte IS 'For a counter-CT-e, its link (contracts ContraCteVinculo, JSON): contractor''s key (chave_original), mode, service type, route, batch row, driver, plate, value in cents. cte.contra_cte_criado.';

COMMENT ON TABLE rm.cte_nfe IS 'One row per NF-e key an own CT-e carries. Filled by cte.autorizado and cte.emitido_recebido.';
COMMENT ON COLUMN rm.cte_nfe.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.cte_nfe.cte_id IS 'The CT-e (rm.ctes).';
COMMENT ON COLUMN rm.cte_nfe.nfe_chave IS 'NF-e access key, 44 digits (rm.nfes.chave when imported).';

COMMENT ON TABLE rm.cte_subcontratacao IS 'Inbox of CT-e issued by other companies and received by this one, one row per company and key. Filled by cte_subcontratacao.recebido; cte_subcontratacao.reenviado and cte_subcontratacao.substituido (new content) update it; status follows subcontratacao.reservada / subcontratacao.liberada.';
COMMENT ON COLUMN rm.cte_subcontratacao.company_id IS 'Receiving company (rm.companies).';
COMMENT ON COLUMN rm.cte_subcontratacao.chave IS 'Access key of the received CT-e, 44 digits.';
COMMENT ON COLUMN rm.cte_subcontratacao.status IS 'recebido, subcontratado (an active 1a1 counter-CT-e took it) or subcontratado_em_pernas (active counter-CT-e in legs).';
COMMENT ON COLUMN rm.cte_subcontratacao.carrier_role IS 'The receiving company''s role in the CT-e: emitente, tomador, expedidor, recebedor, remetente, destinatario or terceiro.';
COMMENT ON COLUMN rm.cte_subcontratacao.allows_counter_cte IS 'Whether a counter-CT-e may be made of it.';
COMMENT ON COLUMN rm.cte_subcontratacao.counter_cte_blocked_reason IS 'Why not: cte_proprio, vinculado_multimodal, nao_e_cte_de_carga, cte_nao_normal or ambiente_homologacao; null when allowed.';
COMMENT ON COLUMN rm.cte_subcontratacao.received_count IS 'How many times it was received (count).';
COMMENT ON COLUMN rm.cte_subcontratacao.content_updated IS 'Whether the last receipt replaced the content (cte_subcontratacao.substituido).';
COMMENT ON COLUMN rm.cte_subcontratacao.first_received_at IS 'Recorded time of cte_subcontratacao.recebido (timestamptz).';
COMMENT ON COLUMN rm.cte_subcontratacao.last_received_at IS 'Recorded time of the last receipt (timestamptz).';
COMMENT ON COLUMN rm.cte_subcontratacao.last_channel IS 'Channel of the last receipt: api (uploaded) or repasse (handed by the issuer).';
COMMENT ON COLUMN rm.cte_subcontratacao.delivered_by IS 'Who handed it over, when by repasse (JSON).';
COMMENT ON COLUMN rm.cte_subcontratacao.xml_sha256 IS 'SHA-256 (hex) of the XML as archived.';
COMMENT ON COLUMN rm.cte_subcontratacao.xml_size_bytes IS 'XML size in bytes.';
COMMENT ON COLUMN rm.cte_subcontratacao.modelo IS 'Fiscal model (57 or 67).';
COMMENT ON COLUMN rm.cte_subcontratacao.versao IS 'Layout version (4.00 or 3.00).';
COMMENT ON COLUMN rm.cte_subcontratacao.serie IS 'Series.';
COMMENT ON COLUMN rm.cte_subcontratacao.numero IS 'Number within the series.';
COMMENT ON COLUMN rm.cte_subcontratacao.data_emissao IS 'dhEmi exactly as written in the XML (text, ISO 8601 with its UTC offset; data_emissao::timestamptz gives the instant).';
COMMENT ON COLUMN rm.cte_subcontratacao.ambiente_documento IS 'producao or homologacao.';
COMMENT ON COLUMN rm.cte_subcontratacao.tipo_servico IS 'tpServ (0 normal, 1 subcontratação, 2 redespacho, 3 redespacho intermediário, 4 vinculado a multimodal).';
COMMENT ON COLUMN rm.cte_subcontratacao.tipo_cte IS 'tpCTe (0 normal, 1 complemento, 2 anulação, 3 substituto).';
COMMENT ON COLUMN rm.cte_subcontratacao.cfop IS 'CFOP, 4 digits.';
COMMENT ON COLUMN rm.cte_subcontratacao.emitente_cnpj IS 'Issuer''s CNPJ (or CPF), digits.';
COMMENT ON COLUMN rm.cte_subcontratacao.emitente_nome IS 'Issuer''s name.';
COMMENT ON COLUMN rm.cte_subcontratacao.emitente_busca IS 'Issuer''s name folded for search (lower case, no accents).';
COMMENT ON COLUMN rm.cte_subcontratacao.tomador_papel IS 'Who the taker is: remetente, expedidor, recebedor, destinatario or outros.';
COMMENT ON COLUMN rm.cte_subcontratacao.tomador_documento IS 'Taker''s CNPJ or CPF (digits).';
COMMENT ON COLUMN rm.cte_subcontratacao.tomador_nome IS 'Taker''s name.';
COMMENT ON COLUMN rm.cte_subcontratacao.inicio_municipio IS 'Municipality name where the service starts.';
COMMENT ON COLUMN rm.cte_subcontratacao.inicio_uf IS 'UF where the service starts.';
COMMENT ON COLUMN rm.cte_subcontratacao.fim_municipio IS 'Municipality name where the service ends.';
COMMENT ON COLUMN rm.cte_subcontratacao.fim_uf IS 'UF where the service ends.';
COMMENT ON COLUMN rm.cte_subcontratacao.valor_prestacao_centavos IS 'vTPrest, total service value, in cents (bigint).';
COMMENT ON COLUMN rm.cte_subcontratacao.valor_receber_centavos IS 'vRec, amount to receive, in cents (bigint).';
COMMENT ON COLUMN rm.cte_subcontratacao.nfe_chaves IS 'NF-e access keys the CT-e carries.';
COMMENT ON COLUMN rm.cte_subcontratacao.autorizado IS 'Whether the XML carries an authorization protocol (cStat 100 or 150).';
COMMENT ON COLUMN rm.cte_subcontratacao.cte IS 'Everything read from the XML (contracts CteLido, JSON; money inside in cents).';

COMMENT ON TABLE rm.subcontratacoes IS 'One row per counter-CT-e that took a contractor''s key (rm.cte_subcontratacao), in its mode; active until the counter-CT-e is cancelled or refused. Filled by subcontratacao.reservada; subcontratacao.liberada and subcontratacao.paga update it.';
COMMENT ON COLUMN rm.subcontratacoes.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.subcontratacoes.chave IS 'The contractor''s CT-e key taken, 44 digits.';
COMMENT ON COLUMN rm.subcontratacoes.cte_id IS 'The counter-CT-e (rm.ctes).';
COMMENT ON COLUMN rm.subcontratacoes.modo IS '1a1 (one counter-CT-e for the whole CT-e) or pernas (one per leg).';
COMMENT ON COLUMN rm.subcontratacoes.inicio_ibge IS 'IBGE municipality code (7 digits) where the leg starts.';
COMMENT ON COLUMN rm.subcontratacoes.fim_ibge IS 'IBGE municipality code (7 digits) where the leg ends.';
COMMENT ON COLUMN rm.subcontratacoes.ativo IS 'Whether it still holds the key (false after subcontratacao.liberada).';
COMMENT ON COLUMN rm.subcontratacoes.reservada_em IS 'Recorded time of subcontratacao.reservada (timestamptz).';
COMMENT ON COLUMN rm.subcontratacoes.liberada_em IS 'Recorded time of subcontratacao.liberada (timestamptz).';
COMMENT ON COLUMN rm.subcontratacoes.motivo_liberacao IS 'Why it let go: cancelado or rejeitado.';
COMMENT ON COLUMN rm.subcontratacoes.paga_em IS 'Recorded time of subcontratacao.paga (timestamptz).';

COMMENT ON TABLE rm.servicos IS 'One row per own CT-e authorized or delivered: the service performed. Filled by cte.autorizado and cte.emitido_recebido.';
COMMENT ON COLUMN rm.servicos.cte_id IS 'The CT-e (rm.ctes).';
COMMENT ON COLUMN rm.servicos.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.servicos.chave IS 'CT-e access key, 44 digits.';
COMMENT ON COLUMN rm.servicos.tomador_documento IS 'Taker''s CNPJ or CPF (digits).';
COMMENT ON COLUMN rm.servicos.tomador_nome IS 'Taker''s name.';
COMMENT ON COLUMN rm.servicos.inicio_municipio IS 'Municipality name where the service starts.';
COMMENT ON COLUMN rm.servicos.inicio_uf IS 'UF where the service starts.';
COMMENT ON COLUMN rm.servicos.fim_municipio IS 'Municipality name where the service ends.';
COMMENT ON COLUMN rm.servicos.fim_uf IS 'UF where the service ends.';
COMMENT ON COLUMN rm.servicos.valor_centavos IS 'vTPrest, total service value, in cents (bigint).';
COMMENT ON COLUMN rm.servicos.data_emissao IS 'dhEmi exactly as written in the XML (text, ISO 8601 with its UTC offset; data_emissao::timestamptz gives the instant).';
COMMENT ON COLUMN rm.servicos.status IS 'registrado.';
COMMENT ON COLUMN rm.servicos.registrado_em IS 'Recorded time of cte.autorizado / cte.emitido_recebido (timestamptz).';

COMMENT ON TABLE rm.entregas IS 'One row per own CT-e authorized or delivered: the delivery to confirm at the receiver (recebedor, else destinatário). Filled by cte.autorizado and cte.emitido_recebido; cte.evento_registrado 110180 (comprovante de entrega) confirms it, 110181 (its cancellation) reopens it.';
COMMENT ON COLUMN rm.entregas.cte_id IS 'The CT-e (rm.ctes).';
COMMENT ON COLUMN rm.entregas.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.entregas.chave IS 'CT-e access key, 44 digits.';
COMMENT ON COLUMN rm.entregas.destinatario_documento IS 'CNPJ or CPF (digits) of who receives the cargo.';
COMMENT ON COLUMN rm.entregas.destinatario_nome IS 'Name of who receives the cargo.';
COMMENT ON COLUMN rm.entregas.municipio IS 'Municipality name of the delivery (end of service).';
COMMENT ON COLUMN rm.entregas.uf IS 'UF of the delivery.';
COMMENT ON COLUMN rm.entregas.status IS 'a_confirmar or confirmada.';
COMMENT ON COLUMN rm.entregas.criada_em IS 'Recorded time of the CT-e event that created it (timestamptz).';
COMMENT ON COLUMN rm.entregas.confirmada_em IS 'When the delivery proof event was registered (timestamptz, from cte.evento_registrado 110180); null while to confirm.';

COMMENT ON TABLE rm.recebiveis IS 'One row per own CT-e authorized or delivered: the receivable from the taker. Filled by cte.autorizado and cte.emitido_recebido.';
COMMENT ON COLUMN rm.recebiveis.cte_id IS 'The CT-e (rm.ctes).';
COMMENT ON COLUMN rm.recebiveis.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.recebiveis.chave IS 'CT-e access key, 44 digits.';
COMMENT ON COLUMN rm.recebiveis.devedor_documento IS 'Taker''s CNPJ or CPF (digits): who owes.';
COMMENT ON COLUMN rm.recebiveis.devedor_nome IS 'Taker''s name.';
COMMENT ON COLUMN rm.recebiveis.devedor_papel IS 'Taker''s role: remetente, expedidor, recebedor, destinatario or outros.';
COMMENT ON COLUMN rm.recebiveis.valor_centavos IS 'vRec, amount to receive, in cents (bigint).';
COMMENT ON COLUMN rm.recebiveis.valor_prestacao_centavos IS 'vTPrest, total service value, in cents (bigint).';
COMMENT ON COLUMN rm.recebiveis.status IS 'em_aberto.';
COMMENT ON COLUMN rm.recebiveis.criado_em IS 'Recorded time of the CT-e event that created it (timestamptz).';

-- NF-e ------------------------------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.nfes IS 'One row per NF-e a company imported, by XML or by the key of a PDF (then only what the key tells). Filled by nfe.importada and nfe.chave_importada; nfe.reimportada updates it; nfe.removida deletes it. Whether a CT-e carries it is in rm.cte_nfe.';
COMMENT ON COLUMN rm.nfes.company_id IS 'Importing company (rm.companies).';
COMMENT ON COLUMN rm.nfes.chave IS 'NF-e access key, 44 digits.';
COMMENT ON COLUMN rm.nfes.xml_disponivel IS 'Whether the XML was imported (false: key from a PDF only).';
COMMENT ON COLUMN rm.nfes.modelo IS 'Fiscal model (55 NF-e, 65 NFC-e).';
COMMENT ON COLUMN rm.nfes.serie IS 'Series.';
COMMENT ON COLUMN rm.nfes.numero IS 'Number within the series.';
COMMENT ON COLUMN rm.nfes.uf IS 'UF of the key (cUF), two letters.';
COMMENT ON COLUMN rm.nfes.data_emissao IS 'dhEmi exactly as written in the XML (text, ISO 8601 with its UTC offset; data_emissao::timestamptz gives the instant); null without XML.';
COMMENT ON COLUMN rm.nfes.ambiente_documento IS 'producao or homologacao; null without XML.';
COMMENT ON COLUMN rm.nfes.natureza_operacao IS 'natOp as written.';
COMMENT ON COLUMN rm.nfes.emitente_documento IS 'Issuer''s CNPJ or CPF, digits (from the key when there is no XML).';
COMMENT ON COLUMN rm.nfes.emitente_tipo_documento IS 'CNPJ, CPF or estrangeiro.';
COMMENT ON COLUMN rm.nfes.emitente_nome IS 'Issuer''s name.';
COMMENT ON COLUMN rm.nfes.emitente_busca IS 'Issuer''s name folded for search (lower case, no accents).';
COMMENT ON COLUMN rm.nfes.emitente_uf IS 'Issuer''s UF.';
COMMENT ON COLUMN rm.nfes.emitente_municipio IS 'Issuer''s municipality name.';
COMMENT ON COLUMN rm.nfes.destinatario_documento IS 'Recipient''s CNPJ or CPF, digits.';
COMMENT ON COLUMN rm.nfes.destinatario_nome IS 'Recipient''s name.';
COMMENT ON COLUMN rm.nfes.destinatario_busca IS 'Recipient''s name folded for search.';
COMMENT ON COLUMN rm.nfes.valor_total_centavos IS 'vNF, the invoice total, in cents (bigint).';
COMMENT ON COLUMN rm.nfes.protocolo_numero IS 'Authorization protocol number, when the XML carries it.';
COMMENT ON COLUMN rm.nfes.protocolo_status IS 'Authorization protocol cStat (100 authorized, ...).';
COMMENT ON COLUMN rm.nfes.xml_sha256 IS 'SHA-256 (hex) of the XML as archived.';
COMMENT ON COLUMN rm.nfes.xml_arquivo IS 'The archived XML file''s description (JSON: sha256, name, size).';
COMMENT ON COLUMN rm.nfes.pdf_sha256 IS 'SHA-256 (hex) of the PDF the key was read from.';
COMMENT ON COLUMN rm.nfes.pdf_arquivo IS 'The archived PDF''s description (JSON).';
COMMENT ON COLUMN rm.nfes.nfe IS 'Everything read from the XML (contracts NfeLida, JSON; money inside in cents).';
COMMENT ON COLUMN rm.nfes.recebimentos IS 'How many times it was imported (count).';
COMMENT ON COLUMN rm.nfes.importada_em IS 'Recorded time of the first import (timestamptz).';
COMMENT ON COLUMN rm.nfes.atualizada_em IS 'Recorded time of the last import (timestamptz).';

-- Fleet and registrations -----------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.veiculos IS 'One row per vehicle registered by a company (integer id per company); a removed vehicle keeps its row with removido_em. Filled by veiculo.cadastrado; veiculo.alterado and veiculo.removido update it.';
COMMENT ON COLUMN rm.veiculos.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.veiculos.id IS 'Vehicle id within the company.';
COMMENT ON COLUMN rm.veiculos.placa IS 'Plate, upper case without separators.';
COMMENT ON COLUMN rm.veiculos.renavam IS 'RENAVAM.';
COMMENT ON COLUMN rm.veiculos.rntrc IS 'RNTRC the vehicle runs under.';
COMMENT ON COLUMN rm.veiculos.uf IS 'UF of licensing.';
COMMENT ON COLUMN rm.veiculos.tara_kg IS 'Tare in kilograms.';
COMMENT ON COLUMN rm.veiculos.capacidade_kg IS 'Load capacity in kilograms.';
COMMENT ON COLUMN rm.veiculos.capacidade_m3 IS 'Load capacity in cubic metres.';
COMMENT ON COLUMN rm.veiculos.tipo_rodado IS 'tpRod code of the MDF-e (wheel configuration).';
COMMENT ON COLUMN rm.veiculos.tipo_carroceria IS 'tpCar code of the MDF-e (body type).';
COMMENT ON COLUMN rm.veiculos.tipo IS 'tracao (veicTracao) or reboque (veicReboque).';
COMMENT ON COLUMN rm.veiculos.proprietario IS 'Owner when not the company (JSON: documento, tipo_documento, nome, rntrc, tipo_proprietario; 0 = TAC-agregado).';
COMMENT ON COLUMN rm.veiculos.cadastrado_em IS 'Recorded time of veiculo.cadastrado (timestamptz).';
COMMENT ON COLUMN rm.veiculos.atualizado_em IS 'Recorded time of the last change (timestamptz).';
COMMENT ON COLUMN rm.veiculos.removido_em IS 'Recorded time of veiculo.removido (timestamptz); null while active.';

COMMENT ON TABLE rm.motoristas IS 'One row per driver registered by a company (integer id per company); a removed driver keeps the row with removido_em. Filled by motorista.cadastrado; motorista.alterado and motorista.removido update it.';
COMMENT ON COLUMN rm.motoristas.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.motoristas.id IS 'Driver id within the company.';
COMMENT ON COLUMN rm.motoristas.cpf IS 'CPF, 11 digits.';
COMMENT ON COLUMN rm.motoristas.nome IS 'Name.';
COMMENT ON COLUMN rm.motoristas.nome_busca IS 'Name folded for search (lower case, no accents).';
COMMENT ON COLUMN rm.motoristas.telefone IS 'Phone.';
COMMENT ON COLUMN rm.motoristas.chave_pix IS 'PIX key for payouts (JSON: tipo, valor).';
COMMENT ON COLUMN rm.motoristas.repasse_modo IS 'Installment release mode: automatico or manual.';
COMMENT ON COLUMN rm.motoristas.repasse_parcelas IS 'The driver''s payout rule: installments (JSON: posicao, percentual, dias).';
COMMENT ON COLUMN rm.motoristas.cadastrado_em IS 'Recorded time of motorista.cadastrado (timestamptz).';
COMMENT ON COLUMN rm.motoristas.atualizado_em IS 'Recorded time of the last change (timestamptz).';
COMMENT ON COLUMN rm.motoristas.removido_em IS 'Recorded time of motorista.removido (timestamptz); null while active.';

COMMENT ON VIEW rm.agregados IS 'View: one row per owner document of the active vehicles owned by a TAC-agregado (proprietario.tipo_proprietario 0), with the matching active driver. Derived from rm.veiculos and rm.motoristas, so always as current as they are.';
COMMENT ON COLUMN rm.agregados.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.agregados.documento IS 'Owner''s CPF or CNPJ, digits.';
COMMENT ON COLUMN rm.agregados.tipo_documento IS 'CPF or CNPJ.';
COMMENT ON COLUMN rm.agregados.nome IS 'Owner''s name (latest vehicle change).';
COMMENT ON COLUMN rm.agregados.rntrc IS 'Owner''s RNTRC (latest vehicle change).';
COMMENT ON COLUMN rm.agregados.rntrcs IS 'Every RNTRC its vehicles name.';
COMMENT ON COLUMN rm.agregados.veiculos IS 'Its active vehicles (JSON: id, placa, tipo, rntrc).';
COMMENT ON COLUMN rm.agregados.cadastrado_em IS 'Earliest registration of its vehicles (timestamptz).';
COMMENT ON COLUMN rm.agregados.atualizado_em IS 'Latest change of its vehicles or driver (timestamptz).';
COMMENT ON COLUMN rm.agregados.motorista_id IS 'The matching active driver (rm.motoristas.id), or null.';

COMMENT ON TABLE rm.regras_tributacao IS 'One row per live tax rule of a company; a removed rule has no row (the log keeps it). Filled by regra_tributacao.criada and regra_tributacao.alterada; regra_tributacao.removida deletes it.';
COMMENT ON COLUMN rm.regras_tributacao.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.regras_tributacao.regra_id IS 'Rule id within the company.';
COMMENT ON COLUMN rm.regras_tributacao.uf_origem IS 'UF where the service starts.';
COMMENT ON COLUMN rm.regras_tributacao.uf_destino IS 'UF where the service ends.';
COMMENT ON COLUMN rm.regras_tributacao.tp_serv IS 'tpServ the rule applies to; null for any.';
COMMENT ON COLUMN rm.regras_tributacao.cfop IS 'CFOP to write, 4 digits.';
COMMENT ON COLUMN rm.regras_tributacao.icms_cst IS 'ICMS CST.';
COMMENT ON COLUMN rm.regras_tributacao.icms_aliquota IS 'ICMS rate in hundredths of a percentage point (1200 = 12%).';
COMMENT ON COLUMN rm.regras_tributacao.icms_reducao_base IS 'ICMS base reduction in hundredths of a percentage point.';
COMMENT ON COLUMN rm.regras_tributacao.ibs_cbs IS 'IBS/CBS (tax reform) settings (JSON).';
COMMENT ON COLUMN rm.regras_tributacao.criada_em IS 'Recorded time of regra_tributacao.criada (timestamptz).';
COMMENT ON COLUMN rm.regras_tributacao.atualizada_em IS 'Recorded time of the last change (timestamptz).';

-- MDF-e -----------------------------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.mdfes IS 'One row per MDF-e (road, model 58) of a company. Filled by mdfe.criado; followed by mdfe.emissao_solicitada, mdfe.xml_assinado, mdfe.autorizado, mdfe.rejeitado, mdfe.resultado_pendente and its events (mdfe.evento_pendente, mdfe.evento_registrado, mdfe.evento_rejeitado).';
COMMENT ON COLUMN rm.mdfes.mdfe_id IS 'MDF-e id.';
COMMENT ON COLUMN rm.mdfes.company_id IS 'Issuing company (rm.companies).';
COMMENT ON COLUMN rm.mdfes.ambiente IS 'producao or homologacao.';
COMMENT ON COLUMN rm.mdfes.situacao IS 'rascunho, em_processamento, autorizado, rejeitado, cancelado or encerrado.';
COMMENT ON COLUMN rm.mdfes.chave IS 'Access key, 44 digits (mdfe.xml_assinado, mdfe.autorizado); null before and after a refusal.';
COMMENT ON COLUMN rm.mdfes.serie IS 'Series.';
COMMENT ON COLUMN rm.mdfes.numero IS 'Number within the series.';
COMMENT ON COLUMN rm.mdfes.data_emissao IS 'dhEmi exactly as written in the XML (text, ISO 8601 with its UTC offset; data_emissao::timestamptz gives the instant).';
COMMENT ON COLUMN rm.mdfes.dados IS 'The manifest''s data as created (JSON; money in cents, weights as the contract says).';
COMMENT ON COLUMN rm.mdfes.condutores IS 'Drivers (JSON: cpf, nome), with those added by inclusão de condutor events.';
COMMENT ON COLUMN rm.mdfes.retorno IS 'The authority''s last answer, JSON {cstat, motivo}.';
COMMENT ON COLUMN rm.mdfes.protocolo IS 'Authorization protocol (JSON), from mdfe.autorizado.';
COMMENT ON COLUMN rm.mdfes.xml_sha256 IS 'SHA-256 (hex) of the authorized XML.';
COMMENT ON COLUMN rm.mdfes.eventos IS 'Its events (cancelamento, encerramento, condutor), one entry per type and sequence (JSON: tipo, tp_evento, n_seq, situacao, protocolo, retorno, dados, sha256).';
COMMENT ON COLUMN rm.mdfes.created_at IS 'Recorded time of mdfe.criado (timestamptz).';
COMMENT ON COLUMN rm.mdfes.updated_at IS 'Recorded time of the last event that changed it (timestamptz).';

COMMENT ON TABLE rm.mdfe_ctes IS 'One row per CT-e an MDF-e carries. Filled by mdfe.criado.';
COMMENT ON COLUMN rm.mdfe_ctes.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.mdfe_ctes.mdfe_id IS 'The MDF-e (rm.mdfes).';
COMMENT ON COLUMN rm.mdfe_ctes.cte_id IS 'The CT-e (rm.ctes).';
COMMENT ON COLUMN rm.mdfe_ctes.chave IS 'The CT-e''s access key, 44 digits.';

-- Batches ---------------------------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.lotes IS 'One row per counter-CT-e batch (lote). Filled by lote.criado; lote.concluido ends it.';
COMMENT ON COLUMN rm.lotes.batch_id IS 'Batch id.';
COMMENT ON COLUMN rm.lotes.company_id IS 'Company that issues the counter-CT-e (rm.companies).';
COMMENT ON COLUMN rm.lotes.solicitante_company_id IS 'Contractor that requested the batch under an emission grant (rm.autorizacoes), or null when the issuer did.';
COMMENT ON COLUMN rm.lotes.ambiente IS 'producao or homologacao.';
COMMENT ON COLUMN rm.lotes.modo IS 'Subcontracting mode: 1a1 or pernas.';
COMMENT ON COLUMN rm.lotes.total_linhas IS 'Number of rows (keys or legs) in the batch (count).';
COMMENT ON COLUMN rm.lotes.status IS 'processing, then done or failed (lote.concluido).';
COMMENT ON COLUMN rm.lotes.created_at IS 'Recorded time of lote.criado (timestamptz).';
COMMENT ON COLUMN rm.lotes.updated_at IS 'Recorded time of the last change (timestamptz).';
COMMENT ON COLUMN rm.lotes.concluido_em IS 'Recorded time of lote.concluido (timestamptz); null while processing.';

COMMENT ON TABLE rm.lote_linhas IS 'One row per processed row of a batch (a key, or a leg of it). Filled by lote.linha_processada; follows its counter-CT-e: cte.autorizado (emitted), cte.rejeitado / cte.denegado (failed); repasse.documento_registrado / repasse.registro_falhou set financeiro. Company: rm.lotes.company_id.';
COMMENT ON COLUMN rm.lote_linhas.batch_id IS 'The batch (rm.lotes).';
COMMENT ON COLUMN rm.lote_linhas.linha IS 'Row number in the batch (0-based).';
COMMENT ON COLUMN rm.lote_linhas.chave IS 'The contractor''s CT-e key of the row, 44 digits.';
COMMENT ON COLUMN rm.lote_linhas.perna IS 'Leg number (mode pernas), null in mode 1a1.';
COMMENT ON COLUMN rm.lote_linhas.status IS 'pending, emitted, duplicated or failed.';
COMMENT ON COLUMN rm.lote_linhas.tipo_servico IS 'tpServ of the counter-CT-e.';
COMMENT ON COLUMN rm.lote_linhas.counter_cte_id IS 'The counter-CT-e made for the row (rm.ctes), when one was.';
COMMENT ON COLUMN rm.lote_linhas.documento_financeiro IS 'The row''s financial document (the payout''s reference), when given.';
COMMENT ON COLUMN rm.lote_linhas.financeiro IS 'Driver payout registration of an emitted row: ok or failed; null until decided.';
COMMENT ON COLUMN rm.lote_linhas.error_code IS 'Error code of a failed row (contracts error codes).';
COMMENT ON COLUMN rm.lote_linhas.error_message IS 'Error message of a failed row (English).';
COMMENT ON COLUMN rm.lote_linhas.updated_at IS 'Recorded time of the last change (timestamptz).';

-- Driver payout ---------------------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.repasse_documentos IS 'One row per counter-CT-e that reached the driver payout step. Filled by repasse.documento_registrado (financeiro ok) or repasse.registro_falhou (failed); repasse.parcelas_geradas, repasse.conclusao_registrada, repasse.prestacao_contas_registrada and repasse.documento_cancelado update it.';
COMMENT ON COLUMN rm.repasse_documentos.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.repasse_documentos.cte_id IS 'The counter-CT-e (rm.ctes).';
COMMENT ON COLUMN rm.repasse_documentos.chave IS 'The counter-CT-e''s key, 44 digits.';
COMMENT ON COLUMN rm.repasse_documentos.chave_original IS 'The contractor''s CT-e key it was made of, 44 digits.';
COMMENT ON COLUMN rm.repasse_documentos.documento_financeiro IS 'Financial document of the batch row (installment routes find the document by it).';
COMMENT ON COLUMN rm.repasse_documentos.lote_id IS 'The batch (rm.lotes), or null for a single counter-CT-e.';
COMMENT ON COLUMN rm.repasse_documentos.grupo IS 'Payout group: lote:<lote_id>:<cpf> for a batch''s documents of one driver, or the document alone.';
COMMENT ON COLUMN rm.repasse_documentos.posicao_no_grupo IS 'Order in the batch (row, 0-based); 0 for a single counter-CT-e.';
COMMENT ON COLUMN rm.repasse_documentos.motorista_cpf IS 'Driver''s CPF, 11 digits.';
COMMENT ON COLUMN rm.repasse_documentos.valor_centavos IS 'Value to pay the driver, in cents (bigint).';
COMMENT ON COLUMN rm.repasse_documentos.regra_origem IS 'Where the installment rule came from: lote, motorista or padrao.';
COMMENT ON COLUMN rm.repasse_documentos.regra_parcelas IS 'The installment rule frozen at registration (JSON: posicao, percentual, dias).';
COMMENT ON COLUMN rm.repasse_documentos.modo IS 'Release mode: automatico or manual.';
COMMENT ON COLUMN rm.repasse_documentos.financeiro IS 'ok (registered) or failed.';
COMMENT ON COLUMN rm.repasse_documentos.financeiro_erro_codigo IS 'Error code of a failed registration.';
COMMENT ON COLUMN rm.repasse_documentos.financeiro_erro_mensagem IS 'Error message of a failed registration.';
COMMENT ON COLUMN rm.repasse_documentos.documentos_no_grupo_na_bipagem IS 'Documents in the group at the scan (count), from repasse.parcelas_geradas.';
COMMENT ON COLUMN rm.repasse_documentos.ordem_no_grupo_na_bipagem IS 'This document''s order in the group at the scan, from repasse.parcelas_geradas.';
COMMENT ON COLUMN rm.repasse_documentos.registrado_em IS 'Recorded time of the registration event (timestamptz).';
COMMENT ON COLUMN rm.repasse_documentos.bipado_em IS 'When the document was scanned (bipagem; timestamptz, from repasse.parcelas_geradas).';
COMMENT ON COLUMN rm.repasse_documentos.concluido_em IS 'When the delivery was completed (timestamptz, from repasse.conclusao_registrada).';
COMMENT ON COLUMN rm.repasse_documentos.prestado_contas_em IS 'When the driver rendered accounts (timestamptz, from repasse.prestacao_contas_registrada).';
COMMENT ON COLUMN rm.repasse_documentos.cancelado IS 'Whether the payout was cancelled (repasse.documento_cancelado).';
COMMENT ON COLUMN rm.repasse_documentos.cancelado_em IS 'When it was cancelled (timestamptz, from repasse.documento_cancelado).';
COMMENT ON COLUMN rm.repasse_documentos.atualizado_em IS 'Recorded time of the last change (timestamptz).';

COMMENT ON TABLE rm.parcelas_repasse IS 'One row per installment of a driver payout, from the scan on. Filled by repasse.parcelas_geradas; repasse.parcela_liberada, repasse.pagamento_solicitado, repasse.parcela_paga and repasse.documento_cancelado update it.';
COMMENT ON COLUMN rm.parcelas_repasse.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.parcelas_repasse.cte_id IS 'The counter-CT-e (rm.repasse_documentos).';
COMMENT ON COLUMN rm.parcelas_repasse.posicao IS 'Installment position (1 scan, 2 completion, 3 accountability in automatic mode).';
COMMENT ON COLUMN rm.parcelas_repasse.grupo IS 'Payout group (rm.repasse_documentos.grupo).';
COMMENT ON COLUMN rm.parcelas_repasse.motorista_cpf IS 'Driver''s CPF, 11 digits.';
COMMENT ON COLUMN rm.parcelas_repasse.percentual IS 'Share of the document''s value, percentage (0–100, two decimals). A percentage, not money.';
COMMENT ON COLUMN rm.parcelas_repasse.valor_centavos IS 'Installment value in cents (bigint).';
COMMENT ON COLUMN rm.parcelas_repasse.dias IS 'Days after release until due (days).';
COMMENT ON COLUMN rm.parcelas_repasse.situacao IS 'pendente, liberada, pagamento_solicitado, paga or cancelada.';
COMMENT ON COLUMN rm.parcelas_repasse.gerada_em IS 'When the document was scanned (timestamptz, from repasse.parcelas_geradas).';
COMMENT ON COLUMN rm.parcelas_repasse.liberada_por IS 'What released it: bipagem, conclusao, prestacao_contas or manual.';
COMMENT ON COLUMN rm.parcelas_repasse.liberada_em IS 'When it was released (timestamptz, from repasse.parcela_liberada).';
COMMENT ON COLUMN rm.parcelas_repasse.vencimento IS 'Due date (date, Brasília calendar), from repasse.parcela_liberada.';
COMMENT ON COLUMN rm.parcelas_repasse.ordem_pagamento_id IS 'Payment order id, from repasse.pagamento_solicitado.';
COMMENT ON COLUMN rm.parcelas_repasse.pagamento_solicitado_em IS 'When payment was requested (timestamptz, from repasse.pagamento_solicitado).';
COMMENT ON COLUMN rm.parcelas_repasse.paga_em IS 'When it was paid (timestamptz, from repasse.parcela_paga).';
COMMENT ON COLUMN rm.parcelas_repasse.cancelada_em IS 'When it was cancelled (timestamptz, from repasse.documento_cancelado).';

-- CIOT ------------------------------------------------------------------------------------------------------------------
COMMENT ON TABLE rm.ciots IS 'One row per CIOT operation of a company, declared alone (origem declaracao) or anchored on an own CT-e (origem cte), from its declaration to its last act. Filled by ciot.declarada; ciot.bloqueada, ciot.pendente, ciot.registrada, ciot.recusada, ciot.viagem_iniciada, ciot.retificada, ciot.cancelada and ciot.encerrada update it. Weights in grams.';
COMMENT ON COLUMN rm.ciots.ciot_id IS 'Operation id.';
COMMENT ON COLUMN rm.ciots.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.ciots.ambiente IS 'producao or homologacao.';
COMMENT ON COLUMN rm.ciots.origem IS 'declaracao or cte.';
COMMENT ON COLUMN rm.ciots.cte_id IS 'Anchored: the own CT-e (rm.ctes).';
COMMENT ON COLUMN rm.ciots.cte_chave IS 'Anchored: the CT-e''s key, 44 digits.';
COMMENT ON COLUMN rm.ciots.cte_sequencia IS 'Anchored: 1 for the CT-e''s first operation, 2 after a refusal or cancellation, ...';
COMMENT ON COLUMN rm.ciots.referencia_externa IS 'The integrator''s reference.';
COMMENT ON COLUMN rm.ciots.status IS 'sent, registrado, retificado, recusado, bloqueado, cancelado or encerrado.';
COMMENT ON COLUMN rm.ciots.ciot IS 'CIOT number, 12 digits, once registered (ciot.registrada).';
COMMENT ON COLUMN rm.ciots.codigo_verificacao IS 'Verification code, 4 digits, once registered.';
COMMENT ON COLUMN rm.ciots.protocolo IS 'The provider''s protocol of the last act.';
COMMENT ON COLUMN rm.ciots.motivo_codigo IS 'bloqueado: contratado_divergente, perfil_nao_coberto or provedor_indisponivel; recusado: the provider''s code.';
COMMENT ON COLUMN rm.ciots.motivo IS 'The stored reason (bloqueado, recusado, or sent without verdict).';
COMMENT ON COLUMN rm.ciots.tipo_carga IS 'lotacao, fracionada or tac_agregado.';
COMMENT ON COLUMN rm.ciots.contratado_documento IS 'Hired carrier''s CPF or CNPJ, digits.';
COMMENT ON COLUMN rm.ciots.motorista_cpf IS 'Driver''s CPF, 11 digits.';
COMMENT ON COLUMN rm.ciots.motorista_nome IS 'Driver''s name.';
COMMENT ON COLUMN rm.ciots.origem_codigo_ibge IS 'Origin IBGE municipality code, 7 digits.';
COMMENT ON COLUMN rm.ciots.origem_municipio IS 'Origin municipality name.';
COMMENT ON COLUMN rm.ciots.origem_uf IS 'Origin UF.';
COMMENT ON COLUMN rm.ciots.destino_codigo_ibge IS 'Destination IBGE municipality code, 7 digits.';
COMMENT ON COLUMN rm.ciots.destino_municipio IS 'Destination municipality name.';
COMMENT ON COLUMN rm.ciots.destino_uf IS 'Destination UF.';
COMMENT ON COLUMN rm.ciots.placas IS 'Plates of the vehicles.';
COMMENT ON COLUMN rm.ciots.qtd_documentos IS 'Number of fiscal documents declared (count).';
COMMENT ON COLUMN rm.ciots.valor_frete_centavos IS 'Freight value in cents (bigint).';
COMMENT ON COLUMN rm.ciots.peso_gramas IS 'Cargo weight in grams.';
COMMENT ON COLUMN rm.ciots.declaracao IS 'The full declaration as recorded, after rectifications (JSON; money in cents, weights in grams).';
COMMENT ON COLUMN rm.ciots.tentativas_sem_veredito IS 'Provider calls without a verdict so far (count), from ciot.pendente.';
COMMENT ON COLUMN rm.ciots.registrado_em IS 'When the provider registered it (timestamptz, from ciot.registrada).';
COMMENT ON COLUMN rm.ciots.viagem_iniciada_em IS 'When the trip started (timestamptz, from ciot.viagem_iniciada).';
COMMENT ON COLUMN rm.ciots.retificacoes IS 'Rectifications made (count).';
COMMENT ON COLUMN rm.ciots.cancelado_em IS 'When it was cancelled (timestamptz, from ciot.cancelada).';
COMMENT ON COLUMN rm.ciots.justificativa_cancelamento IS 'Cancellation justification.';
COMMENT ON COLUMN rm.ciots.encerrado_em IS 'When it was closed (timestamptz, from ciot.encerrada).';
COMMENT ON COLUMN rm.ciots.peso_entregue_gramas IS 'Weight delivered at closing, in grams.';
COMMENT ON COLUMN rm.ciots.historico IS 'Every act in order (JSON: evento, em, protocolo, motivo).';
COMMENT ON COLUMN rm.ciots.created_at IS 'Recorded time of ciot.declarada (timestamptz).';
COMMENT ON COLUMN rm.ciots.updated_at IS 'Recorded time of the last event that changed it (timestamptz).';

-- Operational account and toll passes -----------------------------------------------------------------------------------
COMMENT ON TABLE rm.conta_operacional_movimentos IS 'One row per movement of a company''s operational account, in ledger order; sum(valor_centavos) equals the last saldo_apos_centavos. Filled by conta_operacional.credito_registrado, conta_operacional.debito_registrado and conta_operacional.estorno_registrado.';
COMMENT ON COLUMN rm.conta_operacional_movimentos.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.conta_operacional_movimentos.sequencia IS 'Position in the ledger (1, 2, ...).';
COMMENT ON COLUMN rm.conta_operacional_movimentos.tipo IS 'credito, debito or estorno.';
COMMENT ON COLUMN rm.conta_operacional_movimentos.valor_centavos IS 'Signed amount in cents (bigint): credits and refunds positive, debits negative.';
COMMENT ON COLUMN rm.conta_operacional_movimentos.valor_pedagio_centavos IS 'Debit or refund: the toll part, in cents (bigint).';
COMMENT ON COLUMN rm.conta_operacional_movimentos.taxa_centavos IS 'Debit or refund: the fee part, in cents (bigint).';
COMMENT ON COLUMN rm.conta_operacional_movimentos.saldo_apos_centavos IS 'Balance after the movement, in cents (bigint, never negative).';
COMMENT ON COLUMN rm.conta_operacional_movimentos.referencia IS 'Credit: the deposit''s reference.';
COMMENT ON COLUMN rm.conta_operacional_movimentos.origem_credito IS 'Credit: deposito or deposito_simulado.';
COMMENT ON COLUMN rm.conta_operacional_movimentos.vale_pedagio_id IS 'Debit or refund: the toll pass (rm.vales_pedagio).';
COMMENT ON COLUMN rm.conta_operacional_movimentos.motivo_estorno IS 'Refund: why.';
COMMENT ON COLUMN rm.conta_operacional_movimentos.registrado_em IS 'When the movement was registered (timestamptz, from the event''s registrado_em).';
COMMENT ON COLUMN rm.conta_operacional_movimentos.event_id IS 'Id of the event in the log that made the row.';

COMMENT ON TABLE rm.vales_pedagio IS 'One row per toll pass (vale-pedágio) bought. Filled by vale_pedagio.emitido; vale_pedagio.passagem_registrada, vale_pedagio.cancelado and conta_operacional.estorno_registrado (the refund) update it.';
COMMENT ON COLUMN rm.vales_pedagio.company_id IS 'Company (rm.companies).';
COMMENT ON COLUMN rm.vales_pedagio.vale_pedagio_id IS 'Toll pass id.';
COMMENT ON COLUMN rm.vales_pedagio.numero IS 'The supplier''s number of the pass.';
COMMENT ON COLUMN rm.vales_pedagio.referencia_externa IS 'The integrator''s reference.';
COMMENT ON COLUMN rm.vales_pedagio.situacao IS 'emitido, em_uso (a passage was registered) or cancelado.';
COMMENT ON COLUMN rm.vales_pedagio.origem_codigo_ibge IS 'Origin IBGE municipality code, 7 digits.';
COMMENT ON COLUMN rm.vales_pedagio.origem_municipio IS 'Origin municipality name.';
COMMENT ON COLUMN rm.vales_pedagio.origem_uf IS 'Origin UF.';
COMMENT ON COLUMN rm.vales_pedagio.destino_codigo_ibge IS 'Destination IBGE municipality code, 7 digits.';
COMMENT ON COLUMN rm.vales_pedagio.destino_municipio IS 'Destination municipality name.';
COMMENT ON COLUMN rm.vales_pedagio.destino_uf IS 'Destination UF.';
COMMENT ON COLUMN rm.vales_pedagio.categoria IS 'ANTT vehicle category of the tolls.';
COMMENT ON COLUMN rm.vales_pedagio.eixos IS 'Number of axles.';
COMMENT ON COLUMN rm.vales_pedagio.placa IS 'Plate of the vehicle.';
COMMENT ON COLUMN rm.vales_pedagio.tipo IS 'Kind of pass (as the supplier names it).';
COMMENT ON COLUMN rm.vales_pedagio.motorista_cpf IS 'Driver''s CPF, 11 digits, when given.';
COMMENT ON COLUMN rm.vales_pedagio.motorista_nome IS 'Driver''s name, when given.';
COMMENT ON COLUMN rm.vales_pedagio.cte IS 'CT-e key the trip belongs to, when given.';
COMMENT ON COLUMN rm.vales_pedagio.mdfe IS 'MDF-e key the trip belongs to, when given.';
COMMENT ON COLUMN rm.vales_pedagio.fornecedor_cnpj IS 'Supplier''s CNPJ, 14 digits.';
COMMENT ON COLUMN rm.vales_pedagio.fornecedor_nome IS 'Supplier''s name.';
COMMENT ON COLUMN rm.vales_pedagio.fornecedor_simulado IS 'Whether the supplier was the simulated one (sandbox).';
COMMENT ON COLUMN rm.vales_pedagio.pagador_cnpj IS 'Payer''s CNPJ, 14 digits.';
COMMENT ON COLUMN rm.vales_pedagio.distancia_km IS 'Route distance in kilometres.';
COMMENT ON COLUMN rm.vales_pedagio.quantidade_pracas IS 'Number of toll plazas on the route (count).';
COMMENT ON COLUMN rm.vales_pedagio.pracas IS 'The toll plazas (JSON; values in cents).';
COMMENT ON COLUMN rm.vales_pedagio.passagens IS 'Passages registered: plaza code → instant as ISO 8601 text (JSON), from vale_pedagio.passagem_registrada.';
COMMENT ON COLUMN rm.vales_pedagio.valor_pedagio_centavos IS 'Sum of the tolls, in cents (bigint).';
COMMENT ON COLUMN rm.vales_pedagio.taxa_centavos IS 'The supplier''s fee, in cents (bigint).';
COMMENT ON COLUMN rm.vales_pedagio.valor_total_centavos IS 'Tolls plus fee, in cents (bigint): what the account was debited.';
COMMENT ON COLUMN rm.vales_pedagio.emitido_em IS 'When it was issued (timestamptz, from vale_pedagio.emitido).';
COMMENT ON COLUMN rm.vales_pedagio.cancelavel_ate IS 'Until when it may be cancelled (timestamptz).';
COMMENT ON COLUMN rm.vales_pedagio.primeira_passagem_em IS 'Earliest passage (timestamptz), from vale_pedagio.passagem_registrada.';
COMMENT ON COLUMN rm.vales_pedagio.cancelado_em IS 'When it was cancelled (timestamptz, from vale_pedagio.cancelado).';
COMMENT ON COLUMN rm.vales_pedagio.estornado_em IS 'When the refund was registered (timestamptz, from conta_operacional.estorno_registrado).';
COMMENT ON COLUMN rm.vales_pedagio.estorno_centavos IS 'Refunded amount in cents (bigint).';

-- Down Migration
-- The role is cluster-wide and other databases may use it: only this database's grants go. Comments stay (harmless).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'frete_analistas') THEN
    ALTER DEFAULT PRIVILEGES IN SCHEMA rm REVOKE SELECT ON TABLES FROM frete_analistas;
    REVOKE ALL ON ALL TABLES IN SCHEMA rm FROM frete_analistas;
    REVOKE ALL ON SCHEMA rm FROM frete_analistas;
  END IF;
END $$;
