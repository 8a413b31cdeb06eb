import { type TSchema, Type } from '@sinclair/typebox';
import {
  Catalogos,
  CertificateMetadata,
  CertificateRemoval,
  ErrorCodes,
  type ErrorCode,
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
  REPASSE_LISTA_SCHEMAS,
  LOTE_SCHEMAS,
  VALE_PEDAGIO_SCHEMAS,
  CONTA_OPERACIONAL_SCHEMAS,
  CONSULTA_SCHEMAS,
  CADASTRO_SCHEMAS,
  AUDITORIA_SCHEMAS,
  WEBHOOK_SCHEMAS,
  DISTRIBUICAO_SCHEMAS,
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
  ...REPASSE_LISTA_SCHEMAS,
  ...LOTE_SCHEMAS,
  ...VALE_PEDAGIO_SCHEMAS,
  ...CONTA_OPERACIONAL_SCHEMAS,
  ...CONSULTA_SCHEMAS,
  ...CADASTRO_SCHEMAS,
  ...AUDITORIA_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
  ...DISTRIBUICAO_SCHEMAS,
];

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: '`validacao`: invalid input; `error.details.fields` names each field',
  401: '`nao_autenticado`: credential missing, invalid, expired or of the other environment',
  403: '`escopo_nao_habilitado`, `transportadora_nao_habilitada` or `homologacao_obrigatoria`',
  404: "`nao_encontrado` (also for another company's resource)",
  405: '`metodo_nao_permitido`',
  409: '`idempotency_key_em_uso`: a request with the same `Idempotency-Key` is still running',
  413: '`payload_muito_grande`',
  415: '`tipo_de_midia_nao_suportado`',
  422: 'a business rule was not met; `error.code` says which',
  429: '`limite_requisicoes`; `Retry-After` gives seconds',
  500: '`erro_interno`, without integration details',
  // Any route reads or writes the database: while it is unreachable, or concurrent writes outlast the retries, the answer is this.
  503: '`consulta_indisponivel`: the database is unreachable or concurrent writes outlasted the retries; retry after `Retry-After`',
};

/**
 * The error responses of a route, each the one envelope of spec section 7. Items are statuses or the specific codes the
 * route answers (a code brings its status); the codes are listed, in backticks, in the response's description, which is
 * where the OpenAPI document takes each response's examples from (`openapi.ts`).
 */
export function errors(...items: Array<number | ErrorCode>): Record<number, TSchema> {
  const codes = items.filter((i): i is ErrorCode => typeof i === 'string');
  const statuses = [...new Set([401, 403, 429, 500, 503, ...items.map((i) => (typeof i === 'number' ? i : ErrorCodes[i]))])];
  return Object.fromEntries(
    statuses.map((s) => {
      const own = codes.filter((c) => ErrorCodes[c] === s && !(ERROR_DESCRIPTIONS[s] ?? '').includes(`\`${c}\``));
      const base = ERROR_DESCRIPTIONS[s] ?? 'error';
      const list = own.map((c) => `\`${c}\``).join(', ');
      const description = own.length === 0 ? base : s === 422 ? `a business rule was not met: ${list}` : `${base}; also ${list}`;
      return [s, Type.Ref(ErrorEnvelope, { description })];
    }),
  );
}

/** The per-address rate limit answers every route, the public ones (`/health`, OAuth) included. */
export const limiteRequisicoes = (): Record<number, TSchema> => ({
  429: Type.Ref(ErrorEnvelope, { description: ERROR_DESCRIPTIONS[429] }),
});
