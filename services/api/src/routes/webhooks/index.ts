import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DataEnvelope,
  EntregaParams,
  EntregasQuery,
  EntregaWebhook,
  ListEnvelope,
  PageQuery,
  type Webhook,
  Webhook as WebhookSchema,
  WebhookComSegredo,
  WebhookInput,
  WebhookParams,
  WebhookUpdate,
} from '@frete/contracts';
import { type WebhookRow, webhookPorId, webhooksList } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { listOf, pageOf } from '../../paging';

const TAGS = ['Webhooks'];

const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.webhook_id,
  url: r.url,
  eventos: r.eventos,
  descricao: r.descricao,
  ativo: r.ativo,
  desativado_motivo: r.desativado_motivo,
  desativado_em: r.desativado_em ? r.desativado_em.toISOString() : null,
  segredo_versao: r.segredo_versao,
  segredo_impressao: r.segredo_impressao,
  criado_em: r.criado_em.toISOString(),
  atualizado_em: r.atualizado_em.toISOString(),
});

const ASSINATURA =
  'Every delivery is a POST of `{ type, timestamp, data }` signed as Standard Webhooks specifies: headers `webhook-id` (the ' +
  'delivery id, the same across retries: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` ' +
  '(`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`). Verify with the `standardwebhooks` package: ' +
  '`new Webhook(secret).verify(body, headers)`.';

const ENTREGA =
  'Any 2xx answer within the timeout (5 s by default) is a delivery; anything else is retried with exponential backoff and ' +
  'jitter for up to 3 days, in order per resource. A delivery whose window ends without success, when nothing else reached ' +
  'the endpoint during that window, disables the endpoint (`ativo` false): nothing more is recorded for it until ' +
  '`POST /v1/webhooks/{id}/reativar`.';

const naoEncontrado = (id: string) => new ApiError('nao_encontrado', `no webhook ${id.slice(0, 64)}`);

/** Integrators' webhook endpoints and their deliveries (scope `webhooks`). */
export const webhooksRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'webhooks' as const };
    const h = deps.handlers.webhook;

    /**
     * After a write: the endpoint as the write recorded it; the bounded wait lets the reads that follow see the write
     * as usual, and its timing out changes nothing in the answer.
     */
    const registrado = async (companyId: string, row: WebhookRow) => {
      await deps.readYourWrites.waitFor(companyId);
      return toWebhook(row);
    };

    app.post(
      '/webhooks',
      {
        config,
        schema: {
          operationId: 'criarWebhook',
          tags: TAGS,
          summary: 'Creates a webhook endpoint; answers its secret once',
          description: `\`url\` must be HTTPS on a public address (400 \`webhook_destino_recusado\` otherwise). ${ASSINATURA} ${ENTREGA}`,
          body: Type.Ref(WebhookInput),
          response: { 201: DataEnvelope(Type.Ref(WebhookComSegredo)), ...errors(400) },
        },
      },
      async (request, reply) => {
        const ctx = commandContext(request, deps);
        const { webhook, secret } = await h.criar(ctx, request.body);
        return reply.status(201).send({ data: { ...(await registrado(ctx.companyId, webhook)), secret }, environment: env });
      },
    );

    app.get(
      '/webhooks',
      {
        config,
        schema: {
          operationId: 'listarWebhooks',
          tags: TAGS,
          summary: "The company's webhook endpoints",
          querystring: PageQuery,
          response: { 200: ListEnvelope(Type.Ref(WebhookSchema)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const paging = pageOf(request.query);
        const { rows, total } = await webhooksList(deps.pool, p.companyId, paging);
        return listOf(rows.map(toWebhook), paging, total, env);
      },
    );

    app.get(
      '/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'lerWebhook',
          tags: TAGS,
          summary: 'One webhook endpoint (never its secret)',
          params: WebhookParams,
          response: { 200: DataEnvelope(Type.Ref(WebhookSchema)), ...errors(404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const found = await webhookPorId(deps.pool, p.companyId, request.params.id);
        if (!found) throw naoEncontrado(request.params.id);
        return { data: toWebhook(found), environment: env };
      },
    );

    app.patch(
      '/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'atualizarWebhook',
          tags: TAGS,
          summary: "Changes a webhook endpoint's URL, event types or description",
          description: 'What the body names is replaced; what it omits stays. The URL is checked as at creation.',
          params: WebhookParams,
          body: Type.Ref(WebhookUpdate),
          response: { 200: DataEnvelope(Type.Ref(WebhookSchema)), ...errors(400, 404) },
        },
      },
      async (request) => {
        const ctx = commandContext(request, deps);
        return { data: await registrado(ctx.companyId, await h.atualizar(ctx, request.params.id, request.body)), environment: env };
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'removerWebhook',
          tags: TAGS,
          summary: 'Removes a webhook endpoint: nothing more is delivered to it',
          params: WebhookParams,
          response: { 204: Type.Null({ description: 'Removed' }), ...errors(404) },
        },
      },
      async (request, reply) => {
        await h.remover(commandContext(request, deps), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/webhooks/:id/segredo',
      {
        config,
        schema: {
          operationId: 'rotacionarSegredoWebhook',
          tags: TAGS,
          summary: 'Rotates the signing secret; answers the new one once',
          description: 'The new secret signs every attempt from now on, retries of earlier deliveries included; the old one stops at once.',
          params: WebhookParams,
          response: { 200: DataEnvelope(Type.Ref(WebhookComSegredo)), ...errors(404) },
        },
      },
      async (request) => {
        const ctx = commandContext(request, deps);
        const { webhook, secret } = await h.rotacionar(ctx, request.params.id);
        return { data: { ...(await registrado(ctx.companyId, webhook)), secret }, environment: env };
      },
    );

    app.post(
      '/webhooks/:id/reativar',
      {
        config,
        schema: {
          operationId: 'reativarWebhook',
          tags: TAGS,
          summary: 'Re-enables a disabled webhook endpoint',
          description: 'Its pending deliveries are due at once, with a new retry window; events of the disabled time were not recorded.',
          params: WebhookParams,
          response: { 200: DataEnvelope(Type.Ref(WebhookSchema)), ...errors(404) },
        },
      },
      async (request) => {
        const ctx = commandContext(request, deps);
        return { data: await registrado(ctx.companyId, await h.reativar(ctx, request.params.id)), environment: env };
      },
    );

    app.post(
      '/webhooks/:id/teste',
      {
        config,
        schema: {
          operationId: 'testarWebhook',
          tags: TAGS,
          summary: 'Sends a signed `webhook.teste` event to the endpoint',
          description: 'Recorded and sent like any delivery (retries included); follow it in the delivery log.',
          params: WebhookParams,
          response: { 202: DataEnvelope(Type.Ref(EntregaWebhook)), ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        const ctx = commandContext(request, deps);
        const entregaId = await h.testar(ctx, request.params.id);
        return reply.status(202).send({ data: await h.entrega(ctx.companyId, request.params.id, entregaId), environment: env });
      },
    );

    app.get(
      '/webhooks/:id/entregas',
      {
        config,
        schema: {
          operationId: 'listarEntregasWebhook',
          tags: TAGS,
          summary: "The endpoint's deliveries, newest first",
          description: 'Each with its status, attempts, last HTTP status, the start of the last answer and its duration.',
          params: WebhookParams,
          querystring: EntregasQuery,
          response: { 200: ListEnvelope(Type.Ref(EntregaWebhook)), ...errors(400, 404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const paging = pageOf(request.query);
        const { rows, total } = await h.entregas(p.companyId, request.params.id, { ...request.query, ...paging });
        return listOf(rows, paging, total, env);
      },
    );

    app.get(
      '/webhooks/:id/entregas/:entrega_id',
      {
        config,
        schema: {
          operationId: 'lerEntregaWebhook',
          tags: TAGS,
          summary: 'One delivery with every attempt',
          params: EntregaParams,
          response: { 200: DataEnvelope(Type.Ref(EntregaWebhook)), ...errors(404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        return { data: await h.entrega(p.companyId, request.params.id, request.params.entrega_id), environment: env };
      },
    );

    app.post(
      '/webhooks/:id/entregas/:entrega_id/reenvio',
      {
        config,
        schema: {
          operationId: 'reenviarEntregaWebhook',
          tags: TAGS,
          summary: 'Sends a delivery again',
          description: 'Due at once with a new retry window, whatever its status; the same `webhook-id`, so receivers deduplicate it.',
          params: EntregaParams,
          response: { 202: DataEnvelope(Type.Ref(EntregaWebhook)), ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        const ctx = commandContext(request, deps);
        await h.reenviar(ctx, request.params.id, request.params.entrega_id);
        return reply
          .status(202)
          .send({ data: await h.entrega(ctx.companyId, request.params.id, request.params.entrega_id), environment: env });
      },
    );
  };
