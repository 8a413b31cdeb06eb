import { randomUUID } from 'node:crypto';
import {
  type EntregasQuery,
  type EntregaWebhook,
  type Environment,
  WEBHOOK_TEST_TYPE,
  type WebhookInput,
  type WebhookUpdate,
} from '@frete/contracts';
import { normalizarEventos, normalizarUrl, Rejection, webhookDecider, webhookStream, type WebhookState } from '@frete/domain';
import { type ConfigWebhooks, derivedEventId } from '@frete/platform';
import { type WebhookRow, webhookDoLog } from '@frete/projections';
import { type CommandContext, type CommandDeps, type ContextoEmpresa, load } from '../commands/execute';
import { handles } from '../commands/handles';
import { exigirDestino } from './destino';
import { type EntregasWebhook } from './entregas';
import { impressaoDe, novoSegredo, type SegredosWebhook } from './segredos';

export interface WebhookHandlerDeps extends CommandDeps {
  segredos: SegredosWebhook;
  entregas: EntregasWebhook;
  config: ConfigWebhooks;
  environment: Environment;
  /** Public base address (without /v1) for the payloads' links; relative links without it. */
  publicUrl: string | null;
}

const naoEncontrado = (id: string) => new Rejection('nao_encontrado', `no webhook ${id.slice(0, 64)}`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The integrators' webhook endpoints: the target is checked (SSRF rules, resolving its host) before any decision, and
 * a secret is sealed before the event that names its version, so the log never names a secret the table lacks.
 */
export const webhookHandler = (deps: WebhookHandlerDeps) => {
  const run = handles(deps, webhookDecider, (c) => webhookStream(c.webhook_id));
  const estado = async (companyId: string, id: string): Promise<WebhookState> => {
    if (!UUID.test(id)) throw naoEncontrado(id);
    const s = await load(deps.store, webhookStream(id), webhookDecider);
    if (!s.existe || s.removido || s.company_id !== companyId) throw naoEncontrado(id);
    return s;
  };
  const alvo = (ctx: ContextoEmpresa, id: string) => {
    if (!UUID.test(id)) throw naoEncontrado(id);
    return { webhook_id: id, company_id: ctx.companyId };
  };
  /** The endpoint as its stream recorded it, in the read model's row shape: what a write answers. */
  const registrado = async (id: string): Promise<WebhookRow> => {
    const row = webhookDoLog(await deps.store.readStream(webhookStream(id)));
    if (!row) throw new Error(`webhook ${id} has no recorded endpoint after its write`);
    return row;
  };
  const destino = async (url: string) => {
    // The shape first (a clear `validacao`), then whether it may be reached.
    const normalizada = normalizarUrl(url);
    await exigirDestino(normalizada, deps.config.allowedHosts);
  };

  return {
    /** The new endpoint's id, the endpoint as recorded, and its secret (shown once). */
    criar: async (ctx: ContextoEmpresa, input: WebhookInput): Promise<{ id: string; webhook: WebhookRow; secret: string }> => {
      // The cheap checks before the target's, which may wait for DNS.
      normalizarEventos(input.eventos);
      await destino(input.url);
      const id = randomUUID();
      const secret = novoSegredo();
      await deps.segredos.guardar(ctx.companyId, id, 1, secret);
      try {
        await run(ctx, {
          type: 'CriarWebhook',
          ...alvo(ctx, id),
          url: input.url,
          eventos: input.eventos,
          descricao: input.descricao ?? null,
          segredo_impressao: impressaoDe(secret),
        });
      } catch (err) {
        await deps.segredos.apagarOutras(id, null);
        throw err;
      }
      return { id, webhook: await registrado(id), secret };
    },
    atualizar: async (ctx: ContextoEmpresa, id: string, input: WebhookUpdate): Promise<WebhookRow> => {
      await estado(ctx.companyId, id);
      if (input.eventos !== undefined) normalizarEventos(input.eventos);
      if (input.url !== undefined) await destino(input.url);
      await run(ctx, { type: 'AtualizarWebhook', ...alvo(ctx, id), url: input.url, eventos: input.eventos, descricao: input.descricao });
      return registrado(id);
    },
    /** A new secret, in force at once; the previous one is shredded. The endpoint as recorded, and the secret. */
    rotacionar: async (ctx: ContextoEmpresa, id: string): Promise<{ webhook: WebhookRow; secret: string }> => {
      const s = await estado(ctx.companyId, id);
      const versao = s.segredo_versao + 1;
      const secret = novoSegredo();
      await deps.segredos.guardar(ctx.companyId, id, versao, secret);
      try {
        await run(ctx, { type: 'RotacionarSegredo', ...alvo(ctx, id), segredo_versao: versao, segredo_impressao: impressaoDe(secret) });
      } catch (err) {
        await deps.segredos.apagar(id, versao);
        throw err;
      }
      await deps.segredos.apagarOutras(id, versao);
      return { webhook: await registrado(id), secret };
    },
    remover: async (ctx: ContextoEmpresa, id: string): Promise<void> => {
      await run(ctx, { type: 'RemoverWebhook', ...alvo(ctx, id) });
      await deps.segredos.apagarOutras(id, null);
      await deps.entregas.encerrar(id, 'the endpoint was removed');
    },
    /** Re-enables a disabled endpoint: its pending deliveries are due again, with a new window. */
    reativar: async (ctx: ContextoEmpresa, id: string): Promise<WebhookRow> => {
      await run(ctx, { type: 'ReativarWebhook', ...alvo(ctx, id) });
      await deps.entregas.retomar(id, ctx.now);
      return registrado(id);
    },
    /** The dispatcher's: the endpoint failed for a whole window. Idempotent per delivery that caused it. */
    desativar: async (ctx: CommandContext & { companyId: string }, id: string, motivo: string, causa: string): Promise<void> => {
      try {
        await run(
          ctx,
          { type: 'DesativarWebhook', webhook_id: id, company_id: ctx.companyId, motivo },
          { eventId: () => derivedEventId(causa, 'webhook.desativado') },
        );
      } catch (err) {
        // Removed while its last attempt was in flight: there is nothing left to disable.
        if (!(err instanceof Rejection && err.code === 'nao_encontrado')) throw err;
      }
    },
    /** Records a `webhook.teste` delivery, sent at once; its id. */
    testar: async (ctx: ContextoEmpresa, id: string): Promise<string> => {
      const s = await estado(ctx.companyId, id);
      if (!s.ativo) throw new Rejection('webhook_desativado', `webhook ${id} is disabled: re-enable it first`);
      const caminho = `/v1/webhooks/${id}`;
      return deps.entregas.teste(
        ctx.companyId,
        id,
        {
          type: WEBHOOK_TEST_TYPE,
          timestamp: ctx.now.toISOString(),
          data: { id, environment: deps.environment, url: `${deps.publicUrl ?? ''}${caminho}` },
        },
        ctx.now,
      );
    },
    reenviar: async (ctx: ContextoEmpresa, id: string, entregaId: string): Promise<void> => {
      const s = await estado(ctx.companyId, id);
      if (!s.ativo) throw new Rejection('webhook_desativado', `webhook ${id} is disabled: re-enable it first`);
      if (!(await deps.entregas.reenviar(ctx.companyId, id, entregaId, ctx.now))) {
        throw new Rejection('nao_encontrado', `no delivery ${entregaId.slice(0, 64)} of webhook ${id}`);
      }
    },
    entregas: async (
      companyId: string,
      id: string,
      f: EntregasQuery & { page: number; per_page: number },
    ): Promise<{ rows: EntregaWebhook[]; total: number }> => {
      await estado(companyId, id);
      return deps.entregas.listar(companyId, id, f);
    },
    entrega: async (companyId: string, id: string, entregaId: string): Promise<EntregaWebhook> => {
      await estado(companyId, id);
      const e = await deps.entregas.ler(companyId, id, entregaId);
      if (!e) throw new Rejection('nao_encontrado', `no delivery ${entregaId.slice(0, 64)} of webhook ${id}`);
      return e;
    },
  };
};
export type WebhookHandler = ReturnType<typeof webhookHandler>;
