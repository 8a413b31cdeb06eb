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
  tipo_de_midia_nao_suportado: 415,
  regra_de_negocio: 422,
  limite_requisicoes: 429,
  erro_interno: 500,
  consulta_indisponivel: 503,
  provedor_indisponivel: 503,
  // configuration and certificate
  serie_reservada: 422,
  certificado_invalido: 422,
  certificado_senha_incorreta: 422,
  certificado_expirado: 422,
  certificado_cnpj_divergente: 422,
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
  /** A carta de correção names a field the manual forbids correcting (MOC 4.00 Visão Geral §13.1); nothing was sent. */
  carta_correcao_campo_vedado: 422,
  /** `reconciliacao` of an event_key this CT-e never requested. */
  evento_cte_nao_encontrado: 422,
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
      details: Type.Optional(
        Type.Object(
          { fields: Type.Optional(Type.Array(FieldError)) },
          { additionalProperties: true },
        ),
      ),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'The one envelope of every failure (spec section 7)' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
