import { STATUS_CODES } from 'node:http';
import { type ErrorCode, ErrorCodes, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_TYPE } from '@frete/contracts';
import { nomearModelos } from './openapi-modelos';

/**
 * What the OpenAPI document says beyond the route schemas: the tags (one per area) with their descriptions, the shared
 * response headers and one example per error code, and the pass that attaches them to every operation. The routes
 * carry their own `operationId`, tag, summary and error codes (`errors(...)` in `schemas.ts`).
 */

export const OPENAPI_TAGS = [
  { name: 'Saúde', description: 'Readiness of the service (outside /v1, no credential).' },
  { name: 'OAuth', description: 'OAuth 2.0 `client_credentials` tokens and the keys that verify them (outside /v1).' },
  {
    name: 'Fiscal',
    description: "The carrier's fiscal journey: status and catalogues, the fiscal configuration, the A1 certificate and the tax rules.",
  },
  { name: 'CT-e', description: 'Own CT-e: drafts, preview, issue and its polling, events (cancellation, CC-e, delivery), XML and DACTE.' },
  { name: 'NF-e', description: 'NF-e imported from XML, PDF (DANFE) or ZIP, which CT-e drafts carry.' },
  {
    name: 'Distribuição',
    description:
      'CT-e and NF-e that arrive by themselves: the consultation of the national distribution (Ambiente Nacional) and the documents it delivered.',
  },
  {
    name: 'Subcontratação',
    description: "Inbox of other companies' CT-e, emission grants between carriers, the single counter-CT-e and handing a CT-e over.",
  },
  { name: 'Lotes', description: 'Counter-CT-e in batches: the request (202) and the report, written row by row as each is processed.' },
  { name: 'MDF-e', description: 'MDF-e: creation, issue and its polling, events (cancellation, closing, driver), XML and DAMDFE.' },
  { name: 'CIOT', description: 'CIOT declarations (standalone or of a CT-e), the trip start, cancellation, rectification and closing.' },
  { name: 'Frota', description: "The company's registered vehicles and drivers, which MDF-e, counter-CT-e and payouts name." },
  { name: 'Parcelas', description: "Driver payout installments of a counter-CT-e: the driver app's reports, release and payment." },
  { name: 'Vale-pedágio', description: 'Mandatory toll pass: routing, quote, purchase, receipt, passages and cancellation.' },
  { name: 'Conta operacional', description: 'The operational account that pays toll passes: balance, statement and deposits.' },
  { name: 'Consultas', description: "Regulator (ANTT) queries: a carrier's RNTRC and whether plates are in its fleet." },
  { name: 'Cadastros', description: 'Carrier invitations, aggregate drivers and PIX key checks.' },
  { name: 'Auditoria', description: 'The event history as recorded, the company event log and the verification of its hash chain.' },
  {
    name: 'Webhooks',
    description: 'Subscriptions to signed notifications (Standard Webhooks) of what integrators would otherwise poll for.',
  },
  // Apart from the subscriptions' tag: a generator writes one file per tag, and the receiver's side is another class.
  { name: 'Notificações', description: 'What `/v1/webhooks` delivers to a subscribed endpoint: one callback per event type, signed.' },
];

/** The tag of the `webhooks` callbacks (the receiver's side). */
const TAG_NOTIFICACOES = 'Notificações';

/** A sample request id, as the API generates them (a UUID; an incoming reasonable `X-Request-Id` is kept instead). */
const REQUEST_ID = '5f0c6a52-8d1e-4b8e-9f3a-2c7d1e6b4a90';

/** Messages of the examples: the general codes as the API writes them; the others say which rule refused. */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  validacao: 'cnpj: must match pattern "^[0-9]{14}$"',
  nao_autenticado: 'missing or invalid credential',
  escopo_nao_habilitado: "the credential lacks the scope 'fiscal'",
  transportadora_nao_habilitada: 'the company is not an enabled carrier',
  homologacao_obrigatoria: 'this operation exists only in homologação',
  nao_encontrado: 'CT-e not found',
  metodo_nao_permitido: 'method DELETE not allowed on /v1/fiscal/painel',
  payload_muito_grande: 'payload too large',
  tipo_de_midia_nao_suportado: "unsupported content type 'text/csv'",
  regra_de_negocio: 'Rejeicao: Evento registrado fora do prazo',
  limite_requisicoes: 'fiscal rate limit of 120 requests per minute reached for this carrier; retry in 12 s',
  erro_interno: 'internal error',
  consulta_indisponivel: 'the service cannot reach its database now: retry shortly',
  provedor_indisponivel: 'no fiscal provider is contracted for this environment yet',
  autoridade_indisponivel: 'the fiscal authority of SP is not answering now: nothing was processed; retry after 30 s',
  auditoria_indisponivel: "the event history's audit interface needs the PostgreSQL event store (EVENTSTORE_URL is set)",
  xml_indisponivel: 'the archived XML cannot be read now; retry later',
  lote_nao_encontrado: 'batch not found',
  cte_nao_editavel: 'the CT-e is autorizado: only a draft can change',
  consulta_bloqueada: 'the cte distribution service may be consulted again only after 2026-01-15T14:00:00.000Z',
  distribuicao_desabilitada: 'the consultation of the national distribution is turned off for this company',
};

const DETAILS: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  validacao: { fields: [{ field: 'cnpj', message: 'must match pattern "^[0-9]{14}$"' }] },
  autoridade_indisponivel: { tentar_apos: '2026-01-15T13:00:30.000Z' },
  consulta_bloqueada: { tentar_apos: '2026-01-15T14:00:00.000Z', servicos: ['cte'] },
};

const example = (code: ErrorCode) => ({
  summary: `${ErrorCodes[code]} ${code}`,
  value: {
    error: {
      code,
      message: MESSAGES[code] ?? `refused: ${code.replace(/_/g, ' ')}`,
      request_id: REQUEST_ID,
      ...(DETAILS[code] ? { details: DETAILS[code] } : {}),
    },
  },
});

export const OPENAPI_COMPONENTS = {
  headers: {
    'X-Request-Id': {
      description: 'The request id: the one the client sent, if a reasonable token, or a new one. Every error body repeats it.',
      required: true,
      schema: { type: 'string' as const },
      example: REQUEST_ID,
    },
    'Retry-After': {
      description: 'Seconds to wait before trying again (rate limit, an authority or database momentarily unavailable).',
      schema: { type: 'integer' as const, minimum: 1 },
      example: 30,
    },
    'Idempotent-Replayed': {
      description:
        '`true` when the answer is the stored one of an earlier request with the same `Idempotency-Key` (nothing was done again).',
      schema: { type: 'string' as const, enum: ['true'] },
    },
  },
  examples: Object.fromEntries((Object.keys(ErrorCodes) as ErrorCode[]).map((code) => [code, example(code)])),
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** The codes a response's description names in backticks, of that response's status. */
const codesOf = (description: unknown, status: number): ErrorCode[] =>
  typeof description === 'string'
    ? [...new Set([...description.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]!))].filter(
        (c): c is ErrorCode => c in ErrorCodes && ErrorCodes[c as ErrorCode] === status,
      )
    : [];

const envelopeResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: ENVELOPE_REF } } },
});

/**
 * `transformObject` of @fastify/swagger: every response gets `X-Request-Id` (and `Retry-After` where it may come),
 * every envelope response the examples of the codes its description names, and every operation with input its 400.
 */
export function completarDocumento<T extends object>(openapiObject: T): T {
  const doc = openapiObject as Json;
  nomearModelos(doc);
  const paths = isObject(doc.paths) ? doc.paths : {};
  const used = new Set<string>();
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !isObject(operation) || !isObject(operation.responses)) continue;
      const responses = operation.responses;
      const idempotent =
        Array.isArray(operation.parameters) &&
        operation.parameters.some((p) => isObject(p) && p.in === 'header' && p.name === 'idempotency-key');
      const hasInput = operation.requestBody !== undefined || (Array.isArray(operation.parameters) && operation.parameters.length > 0);
      const answersEnvelope = Object.values(responses).some(
        (r) => isObject(r) && JSON.stringify(r.content ?? {}).includes(JSON.stringify(ENVELOPE_REF)),
      );
      // Fastify validates every parameter and body against the schema before the handler: a mismatch is 400 `validacao`.
      if (hasInput && answersEnvelope && responses['400'] === undefined) {
        responses['400'] = envelopeResponse('`validacao`: invalid input; `error.details.fields` names each field');
      }
      for (const [statusText, response] of Object.entries(responses)) {
        if (!isObject(response)) continue;
        const status = Number(statusText);
        // A success without a description of its own says its status rather than @fastify/swagger's placeholder.
        if (response.description === 'Default Response' && STATUS_CODES[status]) response.description = STATUS_CODES[status];
        // An error is JSON whatever the operation produces (XML, PDF): the error handler writes the envelope as JSON.
        const envelope = status >= 400 && JSON.stringify(response.content ?? {}).includes(JSON.stringify(ENVELOPE_REF));
        if (envelope) response.content = { 'application/json': { schema: { $ref: ENVELOPE_REF } } };
        const media = isObject(response.content) ? response.content['application/json'] : undefined;
        response.headers = {
          ...(isObject(response.headers) ? response.headers : {}),
          'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
          ...(envelope && (status === 429 || status === 503 || (status === 409 && idempotent))
            ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
            : {}),
          ...(idempotent && status < 300 ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } } : {}),
        };
        if (envelope && isObject(media)) {
          const codes = codesOf(response.description, status);
          codes.forEach((c) => used.add(c));
          if (codes.length > 0) media.examples = Object.fromEntries(codes.map((c) => [c, { $ref: `#/components/examples/${c}` }]));
        }
      }
    }
  }
  doc.webhooks = notificacoes();
  // Only the examples some response names: the framework's codes (405, 408, 431) belong to no operation.
  const components = isObject(doc.components) ? doc.components : {};
  if (isObject(components.examples)) {
    components.examples = Object.fromEntries(Object.entries(components.examples).filter(([code]) => used.has(code)));
  }
  return openapiObject;
}

/** `cte.autorizado` → `CteAutorizado`: an event type as part of a camelCase id. */
const camel = (type: string) =>
  type
    .split(/[._-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * OpenAPI 3.1 `webhooks`: what `/v1/webhooks` delivers, one entry per event type, so that generated clients type the
 * receiver's side too (`webhooks['cte.autorizado'].post.requestBody`). Signed as Standard Webhooks say.
 */
function notificacoes(): Json {
  const header = (name: string, description: string) => ({ name, in: 'header', required: true, schema: { type: 'string' }, description });
  return Object.fromEntries(
    [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_TYPE].map((type) => [
      type,
      {
        post: {
          operationId: `notificar${camel(type)}`,
          tags: [TAG_NOTIFICACOES],
          summary: `\`${type}\` delivered to the endpoints subscribed to it`,
          parameters: [
            header('webhook-id', 'The delivery id: the same on every retry of one delivery (deduplicate by it)'),
            header('webhook-timestamp', 'Unix seconds of this attempt; refuse one too far from now'),
            header('webhook-signature', '`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint secret'),
          ],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookPayload' } } } },
          responses: {
            '2XX': { description: 'Received: any 2xx within the timeout ends the delivery' },
            default: { description: 'Anything else (or no answer in time) is retried with backoff for up to 3 days' },
          },
        },
      },
    ]),
  );
}
