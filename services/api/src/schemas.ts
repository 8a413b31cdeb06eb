import { type TSchema, Type } from '@sinclair/typebox';
import {
  Catalogos,
  CertificateMetadata,
  CertificateRemoval,
  ErrorEnvelope,
  FiscalConfiguration,
  FiscalConfigurationUpdate,
  FiscalStatus,
  SituacaoAutorizador,
  OAuthError,
  Painel,
  TokenRequest,
  TokenResponse,
  CTE_DOCUMENT_SCHEMAS,
  INBOX_SCHEMAS,
  CTE_SCHEMAS,
  CTE_DRAFT_SCHEMAS,
  MDFE_SCHEMAS,
  CIOT_SCHEMAS,
  CTE_EVENTO_SCHEMAS,
  CONTRA_CTE_SCHEMAS,
  REPASSE_SCHEMAS,
  LOTE_SCHEMAS,
  VALE_PEDAGIO_SCHEMAS,
  CONTA_OPERACIONAL_SCHEMAS,
  CONSULTA_SCHEMAS,
  CADASTRO_SCHEMAS,
  AUDITORIA_SCHEMAS,
  WEBHOOK_SCHEMAS,
} from '@frete/contracts';

/** Schemas with an $id: registered once with addSchema, referenced by Type.Ref, named components in OpenAPI. */
export const SHARED_SCHEMAS: TSchema[] = [
  ErrorEnvelope,
  FiscalConfiguration,
  FiscalConfigurationUpdate,
  CertificateMetadata,
  CertificateRemoval,
  FiscalStatus,
  SituacaoAutorizador,
  Painel,
  Catalogos,
  TokenRequest,
  TokenResponse,
  OAuthError,
  ...CTE_DOCUMENT_SCHEMAS,
  ...INBOX_SCHEMAS,
  ...CTE_DRAFT_SCHEMAS,
  ...CTE_SCHEMAS,
  ...MDFE_SCHEMAS,
  ...CIOT_SCHEMAS,
  ...CTE_EVENTO_SCHEMAS,
  ...CONTRA_CTE_SCHEMAS,
  ...REPASSE_SCHEMAS,
  ...LOTE_SCHEMAS,
  ...VALE_PEDAGIO_SCHEMAS,
  ...CONTA_OPERACIONAL_SCHEMAS,
  ...CONSULTA_SCHEMAS,
  ...CADASTRO_SCHEMAS,
  ...AUDITORIA_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
];

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'validacao: invalid input; `error.details.fields` names each field',
  401: 'nao_autenticado: credential missing, invalid, expired or of the other environment',
  403: 'escopo_nao_habilitado, transportadora_nao_habilitada or homologacao_obrigatoria',
  404: "nao_encontrado (also for another company's resource)",
  405: 'metodo_nao_permitido',
  413: 'payload_muito_grande',
  415: 'tipo_de_midia_nao_suportado',
  422: 'a business rule was not met; `error.code` says which',
  429: 'limite_requisicoes; `Retry-After` gives seconds',
  500: 'erro_interno, without integration details',
  503:
    'a dependency is unavailable (`provedor_indisponivel`: no fiscal provider contracted; `autoridade_indisponivel`: the fiscal ' +
    "authority's channel is paralysed, blocked (656) or failing, retry after `Retry-After`; `xml_indisponivel`: archive unreadable, retry)",
};

/** The error responses of a route, each the one envelope of spec section 7. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  const all = [...new Set([401, 403, 429, 500, ...statuses])];
  return Object.fromEntries(all.map((s) => [s, Type.Ref(ErrorEnvelope, { description: ERROR_DESCRIPTIONS[s] ?? 'error' })]));
}
