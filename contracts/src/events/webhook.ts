import { Type, type Static } from '@sinclair/typebox';

/**
 * An integrator's webhook endpoint (aggregate `webhook`, stream `webhook-<webhook_id>`). The signing secret never enters
 * the log: it is sealed in the platform's table `webhook_segredos`, and the events carry only its version and a
 * fingerprint (the first 16 hex digits of its SHA-256), enough to tell which secret signed what.
 */
const Endpoint = {
  webhook_id: Type.String(),
  company_id: Type.String(),
};

const Destino = {
  url: Type.String(),
  eventos: Type.Array(Type.String()),
  descricao: Type.Union([Type.Null(), Type.String()]),
};

const Segredo = {
  segredo_versao: Type.Integer({ minimum: 1 }),
  segredo_impressao: Type.String({ description: 'First 16 hex digits of the SHA-256 of the secret (never the secret)' }),
};

export const WebhookCriado = Type.Object({ ...Endpoint, ...Destino, ...Segredo });
export type WebhookCriado = Static<typeof WebhookCriado>;

/** URL, subscribed event types and description replaced as a whole. */
export const WebhookAtualizado = Type.Object({ ...Endpoint, ...Destino });
export type WebhookAtualizado = Static<typeof WebhookAtualizado>;

/** A new secret signs from now on; the previous one stops at once. */
export const WebhookSegredoRotacionado = Type.Object({ ...Endpoint, ...Segredo });
export type WebhookSegredoRotacionado = Static<typeof WebhookSegredoRotacionado>;

export const WebhookRemovido = Type.Object(Endpoint);
export type WebhookRemovido = Static<typeof WebhookRemovido>;

/** Deliveries stop: the receiver failed for a whole retry window (`motivo` says so), or the integrator asked. */
export const WebhookDesativado = Type.Object({ ...Endpoint, motivo: Type.String() });
export type WebhookDesativado = Static<typeof WebhookDesativado>;

export const WebhookReativado = Type.Object(Endpoint);
export type WebhookReativado = Static<typeof WebhookReativado>;
