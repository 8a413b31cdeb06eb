import { type Pool } from 'pg';
import { type Environment, type RecordedEvent } from '@frete/contracts';
import { notificacaoDe, TIPOS_NOTIFICADOS } from '@frete/domain';
import { webhooksInscritos } from '@frete/projections';
import { type EntregasWebhook } from '@frete/application';
import { derivedEventId, type Processor, type ReadModelCache } from '@frete/platform';

export interface WebhooksProcessorDeps {
  pool: Pool;
  entregas: EntregasWebhook;
  environment: Environment;
  /** Public base address (without /v1) for the payloads' links; relative links without it. */
  publicUrl: string | null;
  /**
   * The endpoints subscribed, by company and type, as `rm.webhooks` has them: emptied whenever the read models take a
   * webhook's event, so an endpoint registered or removed counts from then on, as it does without it.
   */
  inscritos?: ReadModelCache<string[]>;
}

/**
 * Follows the log and records one delivery per endpoint subscribed to what an event tells (see `notificacaoDe`). It never
 * sends anything: that is the dispatcher's loop, so a slow receiver never holds this processor (or its checkpoint).
 * Idempotent: a delivery's id derives from the endpoint, the event and the type, and the table is unique on them.
 */
export function webhooksProcessor(deps: WebhooksProcessorDeps): Processor {
  const tipos = new Set(TIPOS_NOTIFICADOS);
  return {
    name: 'webhooks',
    handles: (type) => tipos.has(type),
    // Deliveries of one resource are recorded in the order of its stream (the transports' default key).
    async handle(event: RecordedEvent) {
      const n = notificacaoDe(event);
      if (!n) return;
      const buscar = () => webhooksInscritos(deps.pool, n.company_id, n.tipo);
      const endpoints = (deps.inscritos ? await deps.inscritos.get(`${n.company_id}:${n.tipo}`, buscar) : await buscar()) ?? [];
      if (endpoints.length === 0) return;
      const payload = {
        type: n.tipo,
        timestamp: event.recordedAt.toISOString(),
        data: { id: n.id, environment: deps.environment, url: `${deps.publicUrl ?? ''}${n.caminho}`, ...n.campos },
      };
      await deps.entregas.registrar(
        endpoints.map((webhookId) => ({
          id: derivedEventId(event.id, `webhook:${webhookId}:${n.tipo}`),
          company_id: n.company_id,
          webhook_id: webhookId,
          evento_id: event.id,
          tipo: n.tipo,
          recurso: event.streamId,
          payload,
          criada_em: event.recordedAt,
        })),
      );
    },
  };
}
