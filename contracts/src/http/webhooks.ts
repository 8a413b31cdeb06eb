import { Type, type Static } from '@sinclair/typebox';
import { PageQuery } from './common';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([Type.Null(), t]);

/**
 * What an integrator can subscribe to, named `<resource>.<past participle>`. Each comes from the domain events of the
 * log (see `domain/src/webhook/notificacoes.ts` for the mapping): `cte.cancelado` is a registered cancellation event
 * (110111), `mdfe.encerrado`/`mdfe.cancelado` the MDF-e's registered encerramento/cancelamento, `ciot.pendente` an
 * operation still `sent` after the provider's answer, `parcela.pagamento_retirado` a payment order withdrawn before it
 * reached the bank rail because its counter-CT-e's cancellation came first. `cte_subcontratacao.desacordo_*`: the taker's
 * prestação em desacordo (610110) about a received CT-e, registered, pending or refused; `desacordo_cancelado` its
 * registered cancellation (610111). `inbox.cte_recebido`: a CT-e key reached the company's inbox for the first time, by
 * upload, hand-off or the national distribution (`canal`); `nfe.recebida`: an NF-e's XML reached the NF-e list for the
 * first time (an import, or the national distribution), a key known before only from a PDF included.
 */
export const WEBHOOK_EVENT_TYPES = [
  'cte.autorizado',
  'cte.rejeitado',
  'cte.denegado',
  'cte.cancelado',
  'cte.evento_registrado',
  'cte.evento_pendente',
  'cte.evento_rejeitado',
  'mdfe.autorizado',
  'mdfe.rejeitado',
  'mdfe.cancelado',
  'mdfe.encerrado',
  'mdfe.evento_registrado',
  'mdfe.evento_pendente',
  'lote.linha_processada',
  'lote.concluido',
  'ciot.registrado',
  'ciot.recusado',
  'ciot.pendente',
  'parcela.liberada',
  'parcela.paga',
  'parcela.pagamento_retirado',
  'vale_pedagio.emitido',
  'vale_pedagio.cancelado',
  'cte_subcontratacao.desacordo_registrado',
  'cte_subcontratacao.desacordo_cancelado',
  'cte_subcontratacao.desacordo_pendente',
  'cte_subcontratacao.desacordo_rejeitado',
  'inbox.cte_recebido',
  'nfe.recebida',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the event `POST /v1/webhooks/{id}/teste` sends; it needs no subscription. */
export const WEBHOOK_TEST_TYPE = 'webhook.teste';

export const isWebhookEventType = (t: string): t is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t);

/** At most this many characters of a URL. */
export const WEBHOOK_URL_MAX = 2048;

const url = Type.String({
  minLength: 1,
  maxLength: WEBHOOK_URL_MAX,
  description:
    'The receiver: `https://…` on a public address (`WEBHOOKS_ALLOWED_HOSTS` lifts this for its hosts, plain HTTP included); ' +
    'refused with 400 `webhook_destino_recusado` otherwise',
});
const eventos = Type.Array(Type.String({ maxLength: 64 }), {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  description: `Event types to deliver, among: ${WEBHOOK_EVENT_TYPES.join(', ')}. An unknown one is 400 \`validacao\` naming it`,
});
const descricao = Type.String({ maxLength: 200, description: 'Free text for the integrator' });

export const WebhookInput = Type.Object(
  { url, eventos, descricao: Type.Optional(Nullable(descricao)) },
  { $id: 'WebhookInput', additionalProperties: false },
);
export type WebhookInput = Static<typeof WebhookInput>;

/** An update replaces what it names; what it omits stays. */
export const WebhookUpdate = Type.Object(
  { url: Type.Optional(url), eventos: Type.Optional(eventos), descricao: Type.Optional(Nullable(descricao)) },
  { $id: 'WebhookUpdate', additionalProperties: false, minProperties: 1 },
);
export type WebhookUpdate = Static<typeof WebhookUpdate>;

export const Webhook = Type.Object(
  {
    id: Type.String({ description: 'Endpoint id (UUID)' }),
    url: Type.String(),
    eventos: Type.Array(Type.String()),
    descricao: Nullable(Type.String()),
    ativo: Type.Boolean({ description: 'False once disabled after persistent failure (or by the integrator): deliveries stop' }),
    desativado_motivo: Nullable(Type.String()),
    desativado_em: Nullable(Type.String({ format: 'date-time' })),
    segredo_versao: Type.Integer({ description: 'Increases with each rotation' }),
    segredo_impressao: Type.String({ description: 'First 16 hex digits of the SHA-256 of the current secret' }),
    criado_em: Type.String({ format: 'date-time' }),
    atualizado_em: Type.String({ format: 'date-time' }),
  },
  { $id: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

/** Creation and rotation answer the secret once: it is never shown again. */
export const WebhookComSegredo = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({ description: 'The signing secret, `whsec_` + base64 (Standard Webhooks): shown only in this answer' }),
  },
  { $id: 'WebhookComSegredo' },
);
export type WebhookComSegredo = Static<typeof WebhookComSegredo>;

export const WebhookParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const EntregaParams = Type.Object({ id: Type.String({ maxLength: 64 }), entrega_id: Type.String({ maxLength: 64 }) });

export const EntregaStatus = Type.Union([Type.Literal('pendente'), Type.Literal('entregue'), Type.Literal('falhou')], {
  description:
    '`pendente`: waiting for its first or next attempt; `entregue`: the receiver answered 2xx; `falhou`: every attempt of the ' +
    'retry window failed (redeliver it with `POST …/reenvio`)',
});
export type EntregaStatus = Static<typeof EntregaStatus>;

export const TentativaEntrega = Type.Object(
  {
    numero: Type.Integer({ minimum: 1 }),
    iniciada_em: Type.String({ format: 'date-time' }),
    status_http: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when there was no answer" })),
    resposta: Nullable(Type.String({ description: "The start of the receiver's answer (at most 1,024 characters)" })),
    erro: Nullable(Type.String({ description: 'Why there was no usable answer: timeout, refused target, connection error' })),
    duracao_ms: Type.Integer({ minimum: 0 }),
  },
  { $id: 'TentativaEntrega' },
);
export type TentativaEntrega = Static<typeof TentativaEntrega>;

export const EntregaWebhook = Type.Object(
  {
    id: Type.String({ description: 'Delivery id: the `webhook-id` header of every attempt (the same across retries)' }),
    webhook_id: Type.String(),
    tipo: Type.String({ description: 'The event type delivered' }),
    evento_id: Type.String({ description: 'The domain event it comes from' }),
    status: EntregaStatus,
    tentativas: Type.Integer({ minimum: 0 }),
    proxima_tentativa_em: Nullable(Type.String({ format: 'date-time' })),
    criada_em: Type.String({ format: 'date-time' }),
    entregue_em: Nullable(Type.String({ format: 'date-time' })),
    ultimo_status_http: Nullable(Type.Integer()),
    ultima_resposta: Nullable(Type.String()),
    ultimo_erro: Nullable(Type.String()),
    ultima_duracao_ms: Nullable(Type.Integer()),
    payload: Type.Unknown({ description: 'The body sent: `{ type, timestamp, data }`' }),
    historico: Type.Optional(Type.Array(Type.Ref(TentativaEntrega), { description: 'Every attempt, oldest first (GET of one delivery)' })),
  },
  { $id: 'EntregaWebhook' },
);
export type EntregaWebhook = Static<typeof EntregaWebhook>;

export const EntregasQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(EntregaStatus),
});
export type EntregasQuery = Static<typeof EntregasQuery>;

/**
 * What every delivery's body is: the event type, when it happened, and the resource it is about (its `id`, the
 * `environment`, a `url` to GET it, and a few fields of the event).
 */
export const WebhookPayload = Type.Object(
  {
    type: Type.String({ description: `One of the subscribed types, or \`${WEBHOOK_TEST_TYPE}\`` }),
    timestamp: Type.String({ format: 'date-time', description: 'When the domain event was recorded' }),
    data: Type.Object(
      {
        id: Type.String({ description: "The resource's id" }),
        environment: Type.Union([Type.Literal('homologacao'), Type.Literal('producao')]),
        url: Type.String({ description: 'Where to GET the resource (with the same credential)' }),
      },
      { additionalProperties: true },
    ),
  },
  { $id: 'WebhookPayload' },
);
export type WebhookPayload = Static<typeof WebhookPayload>;

export const WEBHOOK_SCHEMAS = [WebhookInput, WebhookUpdate, Webhook, WebhookComSegredo, TentativaEntrega, EntregaWebhook, WebhookPayload];
