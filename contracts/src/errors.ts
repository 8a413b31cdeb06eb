import { Type, type Static } from '@sinclair/typebox';

/**
 * Every error code the API answers, with its HTTP status. Spec section 7 lists the general ones; the rest are the
 * specific codes of each area, and the ones our rulings or design added where the spec is silent.
 */
export const ErrorCodes = {
  nao_autenticado: 401,
  escopo_nao_habilitado: 403,
  homologacao_obrigatoria: 403,
  /** The credential's company is not a carrier, or its fiscal registration is not finished (spec section 7, last note). */
  transportadora_nao_habilitada: 403,
  nao_encontrado: 404,
  metodo_nao_permitido: 405,
  validacao: 400,
  payload_muito_grande: 413,
  /** The request's headers are over Node's limit (16 KB): refused before the request is read. */
  cabecalhos_muito_grandes: 431,
  /** The request did not arrive in full within Node's request timeout. */
  tempo_de_requisicao_esgotado: 408,
  tipo_de_midia_nao_suportado: 415,
  regra_de_negocio: 422,
  limite_requisicoes: 429,
  erro_interno: 500,
  consulta_indisponivel: 503,
  /** The audit interface (history, chain, log) reads the PostgreSQL event store: unavailable with EVENTSTORE_URL. */
  auditoria_indisponivel: 503,
  provedor_indisponivel: 503,
  /**
   * The fiscal authority's channel is down or refusing (108/109 paralysed, 678 consumo indevido, HTTP 5xx, SOAP fault):
   * nothing was processed; `Retry-After` and `error.details.tentar_apos` say when to try again.
   */
  autoridade_indisponivel: 503,
  // configuration and certificate
  serie_reservada: 422,
  certificado_invalido: 422,
  certificado_senha_incorreta: 422,
  certificado_expirado: 422,
  certificado_cnpj_divergente: 422,
  /** A self-signed certificate (the sandbox's test A1) sent to a production deployment: only ICP-Brasil's A1 issue there. */
  certificado_autoassinado: 422,
  /** The authority's server refused the company's A1 as TLS client certificate: nothing was processed. */
  certificado_recusado_pela_autoridade: 422,
  // document intake (CT-e inbox, own CT-e delivered by the carrier, NF-e)
  /** The XML declares a DOCTYPE or entities, or nests absurdly deep: refused before any parsing. */
  xml_hostil: 400,
  xml_malformado: 400,
  /** Well-formed XML that is not a CT-e (`cteProc` or `CTe`), or lacks a field every CT-e has. */
  documento_nao_e_cte: 422,
  /** A CT-e layout other than 4.00 and 3.00 (ruling 17). */
  layout_nao_suportado: 422,
  /** The access key's shape or check digit is wrong. */
  chave_invalida: 422,
  /** `POST /fiscal/cte-emitidos` with a CT-e issued by another company: it belongs in the inbox. */
  cte_de_outro_emitente: 422,
  /** The CT-e's `tpAmb` is not the deployment's environment (production accepts only production documents). */
  ambiente_divergente: 422,
  documento_nao_e_nfe: 422,
  nfe_vinculada: 422,
  nenhuma_nfe_importada: 422,
  // subcontracting network
  emissao_nao_autorizada: 403,
  contratante_nao_encontrada: 404,
  contratante_invalida: 422,
  autorizacao_nao_encontrada: 404,
  cte_nao_autorizado: 422,
  subcontratada_nao_encontrada: 422,
  subcontratada_nao_transportadora: 422,
  subcontratada_igual_contratante: 422,
  xml_indisponivel: 503,
  // CT-e drafts and issue
  /** A CT-e that left the draft state is immutable. */
  cte_nao_editavel: 422,
  /** The series used every number (nCT has 9 digits): choose another series. */
  serie_esgotada: 422,
  /** The draft lacks what an issue needs; `error.details.pendencias` lists it (the same list as the preview). */
  cte_com_pendencias: 422,
  /**
   * The authority would reject the document: a rule of the pre-flight rule set (the one the simulated authority runs)
   * fails; `error.details.rejeicoes` names each (`cStat`, `xMotivo`, `regra`, `fonte`). Nothing was sent.
   */
  rejeicao_prevista: 422,
  /** A carta de correção names a field the manual forbids correcting (MOC 4.00 Visão Geral §13.1); nothing was sent. */
  carta_correcao_campo_vedado: 422,
  /**
   * A carta de correção repeats every correction in force (the authority keeps only the letter with the highest
   * nSeqEvento): the letter with the new ones would pass one letter's limit (50 corrections) or evCCeCTe_v4.00.xsd's
   * field lengths; `error.details` says which. Nothing was sent.
   */
  carta_correcao_excede_limite: 422,
  // the taker's disagreement with a received CT-e (events 610110/610111, MOC 4.00 Visão Geral §6.5, §6.6)
  /** Only the CT-e's taker (`toma3`/`toma4`) may register or cancel a desacordo (the authority's 755). */
  desacordo_nao_tomador: 422,
  /** The desacordo is registered up to 45 days after the CT-e's authorization (the authority's 787). */
  desacordo_fora_do_prazo: 422,
  /** A cancellation needs a registered desacordo not yet cancelled (the authority's 866). */
  desacordo_inexistente: 422,
  /** A desacordo of this CT-e is with the authority without a verdict: reconcile it (repeat the same request). */
  desacordo_pendente: 409,
  /** A desacordo of this CT-e is registered and in force: cancel it before registering another. */
  desacordo_ja_registrado: 409,
  // registry of vehicles and drivers
  /** The plate is already registered for another active vehicle of the company. */
  veiculo_duplicado: 422,
  /** The CPF is already registered for another active driver of the company. */
  motorista_duplicado: 422,
  // tax rules (regras de tributação)
  /** A second rule for the same (uf_origem, uf_destino, tp_serv or general). */
  regra_tributacao_duplicada: 422,
  /** No tax rule applies to the route and service type (also a batch row code). */
  sem_regra_tributacao: 422,
  /**
   * The rule's IBS/CBS rates are ones the authority rejects for a CT-e emitted now (NT 2025.001 v1.11a: 316 pIBSUF, 321
   * pIBSMun, 326 pCBS; the 2026 test year takes IBS 0.1% + 0% and CBS 0.9%); `error.details` has `cStat`, `regra`, `fonte`.
   */
  aliquota_rejeitada_autoridade: 422,
  // MDF-e
  /** A plate given to an MDF-e is not an active vehicle of the company's registry. */
  veiculo_nao_encontrado: 422,
  /** A CPF given to an MDF-e is not an active driver of the company's registry. */
  motorista_nao_encontrado: 422,
  /** A registered vehicle lacks what the MDF-e needs (tara, carroceria, UF…) or is of the wrong type (tracao/reboque). */
  veiculo_incompleto: 422,
  /** The operation needs an authorized MDF-e (DAMDFE, events). */
  mdfe_nao_autorizado: 422,
  /** The MDF-e was already issued (or is closed/cancelled): there is nothing to issue. */
  mdfe_nao_editavel: 422,
  /**
   * The MDF-e would break an ANTT rule of NT 2025.001 v1.03 (301 NCM of a full load, 302 `infPag` of a full load, 303
   * `infPag`/`infBanc` for a TAC, 304 CIOT for a TAC); nothing was sent. `error.details` has `cStat`, `regra`, `fonte`.
   */
  mdfe_regra_antt: 422,
  // counter-CT-e (single and batch); the row codes are also `error.code` of a batch row
  /** `POST /fiscal/cte/contra` refused for the document's own reason; `error.details.reason` names it. */
  contra_cte_invalido: 422,
  /** The contractor's CT-e is not in the subcontractor's inbox (batch rule 1). */
  cte_nao_recebido: 422,
  cte_proprio: 422,
  redespacho_exige_rota: 422,
  origem_incompativel_com_tipo: 422,
  /** The contractor's CT-e gives data a CT-e cannot carry (a party's CNPJ, an unknown municipality code): said at receipt too. */
  cte_original_invalido: 422,
  /**
   * The contractor cancelled its CT-e (event 110111, distributed to the inbox: `cancelamento` of the received CT-e): no
   * counter-CT-e of it, single or batch row (issue 30).
   */
  cte_contratante_cancelado: 422,
  origem_ja_subcontratada_1a1: 422,
  origem_ja_subcontratada_em_pernas: 422,
  /** Ruling 8: an origin whose payout was already paid cannot become legs. */
  origem_ja_paga: 422,
  /** A row whose key is already subcontracted in the same mode (`duplicated`, with the existing counter_cte_id). */
  duplicated: 422,
  /** The authority refused the counter-CT-e (`error.message` carries cStat and motivo). */
  cte_rejeitado: 422,
  /** Neither `valor_frete` nor a pricing rule in the fiscal configuration gives the counter-CT-e's value. */
  valor_frete_indefinido: 422,
  lote_nao_encontrado: 404,
  /** A batch that breaks a rule checked before anything is created (rules 2, 3, 5): `error.details.fields` names each place. */
  lote_invalido: 422,
  // driver payout installments (parcelas de repasse)
  /** The document was not scanned (bipagem) yet: its installments do not exist. */
  parcelas_nao_geradas: 422,
  /** The document has no installment at that position (a whole-document bucket has only one). */
  parcela_nao_encontrada: 422,
  parcela_ja_liberada: 422,
  /** Payment ordered for an installment that was not released. */
  parcela_nao_liberada: 422,
  /** The installment already has a payment order, settled or not. */
  parcela_ja_paga: 422,
  /** The counter-CT-e was cancelled and this unpaid installment with it. */
  parcela_cancelada: 422,
  /** A driver-app report (scan, completion, accountability) about a cancelled counter-CT-e. */
  documento_cancelado: 422,
  /** The counter-CT-e's cancellation is at the authority: no installment is released or ordered until its verdict. */
  documento_em_cancelamento: 422,
  // CIOT (simulated in the sandbox; production without a provider: ruling 7)
  /**
   * `POST /fiscal/ciot` not transmitted: the contracted party is not the company, the profile is not covered, or no provider.
   * `error.details.ciot.id`.
   */
  declaracao_bloqueada: 422,
  /** The CIOT provider refused the declaration; `error.details.ciot.id` and the stored `motivo`. */
  declaracao_recusada: 422,
  /** No CIOT operation with that id for the company (also another company's, or a malformed id), or the CT-e has none. */
  ciot_nao_encontrado: 404,
  /** The CT-e already has a CIOT operation in force or without verdict (`error.details.ciot.id`): cancel it first. */
  ciot_ja_emitido: 422,
  /** What the CT-e and the body give is not enough for a CIOT; `error.details.pendencias` lists it (as `ciot/validacao`). */
  ciot_com_pendencias: 422,
  /** The CT-e cannot carry a CIOT (not road transport, or not a normal CT-e). */
  ciot_cte_incompativel: 422,
  /** The act needs a registered CIOT: this operation is still `sent`, or was refused or blocked. */
  ciot_nao_registrado: 422,
  ciot_cancelado: 422,
  /** The CIOT was closed (encerramento): no cancellation, rectification or closing after it. */
  ciot_encerrado: 422,
  /** Cancellation after the trip started (reported with `inicio-viagem`, or an authorized MDF-e carries the CT-e). */
  ciot_viagem_iniciada: 422,
  /** Rectification of a full-load (lotação) CIOT, which the regulator does not allow. */
  ciot_retificacao_vedada: 422,
  /** The CIOT provider refused a cancellation, rectification or closing; `error.details.motivo`. */
  ciot_operacao_recusada: 422,
  // toll pass (vale-pedágio) and operational account (scope `operacao`)
  /** The operational account's balance does not cover the toll pass (toll + fee): nothing was debited. */
  saldo_insuficiente: 422,
  /** A deposit's `referencia` already used by the company for another amount (a toll pass's `referencia_externa` is 400 `validacao`). */
  referencia_em_uso: 422,
  /** The route crosses no toll plaza for the category: there is no toll pass to buy. */
  rota_sem_pracas: 422,
  /** Cancellation at or after 3 hours from the issue (the service clock). */
  cancelamento_fora_do_prazo: 422,
  /** Cancellation after the first toll plaza passage. */
  passagem_registrada: 422,
  /** The toll pass is already cancelled (and refunded): cancelling or passing again is refused. */
  vale_pedagio_ja_cancelado: 422,
  /** A passage reported at a plaza that is not on the toll pass. */
  praca_fora_do_vale: 422,
  // registrations and regulator queries (scopes `cadastros`, `consultas`)
  /** An invitation the rules refuse: the company's own CNPJ. */
  convite_invalido: 422,
  /** The invited CNPJ is already a carrier customer of the product. */
  transportadora_ja_cadastrada: 422,
  /** The PIX directory has no such key. */
  chave_pix_nao_encontrada: 422,
  // CT-e contingency (operator tool): a switch to the state it is already in
  /** The UF is already issuing CT-e through its contingency authorizer: deactivate it first. */
  contingencia_ja_ativa: 422,
  /** The UF is not in contingency: there is nothing to deactivate. */
  contingencia_nao_ativa: 422,
  // Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header), on every POST
  /** The key was already used by the company for another request (another body, route or method). */
  idempotency_key_reutilizada: 422,
  /** The first request with this key is still running: retry after `Retry-After`. */
  idempotency_key_em_uso: 409,
  // webhooks (scope `webhooks`)
  /**
   * The webhook's URL is refused as a target: not HTTPS, or its host is (or resolves to) a private, loopback, link-local,
   * unique-local or otherwise non-public address, or does not resolve. `WEBHOOKS_ALLOWED_HOSTS` lifts this for its hosts.
   */
  webhook_destino_recusado: 400,
  /** The endpoint is disabled (after persistent failure): re-enable it (`POST /v1/webhooks/{id}/reativar`) first. */
  webhook_desativado: 422,
  // national distribution of DF-e (issue 30: /fiscal/distribuicao)
  /**
   * A consultation asked while every asked service is in the national environment's wait (an hour after 137) or block
   * (656): asking then would restart the block. `Retry-After` and `error.details.tentar_apos` say when; nothing was asked.
   */
  consulta_bloqueada: 429,
  /** The company turned the distribution off (`PUT /fiscal/distribuicao` `{ "habilitada": false }`): turn it on first. */
  distribuicao_desabilitada: 422,
  /** The national distribution asks for the party's UF (`cUFAutor`): the company's fiscal configuration has no address yet. */
  distribuicao_sem_uf: 422,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export const FieldError = Type.Object({
  field: Type.String({ description: 'Path of the field, dotted (`endereco.uf`, `ctes.0.pernas.1.placa`)' }),
  message: Type.String(),
});
export type FieldError = Static<typeof FieldError>;

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Machine-readable code; treat it programmatically' }),
      message: Type.String(),
      request_id: Type.String(),
      details: Type.Optional(Type.Object({ fields: Type.Optional(Type.Array(FieldError)) }, { additionalProperties: true })),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'The one envelope of every failure (spec section 7)' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
