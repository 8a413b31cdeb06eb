import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { type components, type paths } from '../generated/api';

/** The types come from the OpenAPI document (`pnpm client:check` generates `generated/api.d.ts`). */
export type Api = Client<paths>;
export type RascunhoCte = components['schemas']['CteDraftInput'];
export type EmissaoCte = components['schemas']['CteIssueEnvelope'];
export type ErroDaApi = components['schemas']['ErrorEnvelope']['error'];

/** A failure answered by the API: its status and the envelope's `code`, `message` and `request_id`. */
export class FalhaDaApi extends Error {
  constructor(
    readonly status: number,
    readonly erro: ErroDaApi,
  ) {
    super(`${status} ${erro.code}: ${erro.message} (request ${erro.request_id})`);
  }
}

export const criarApi = (baseUrl: string, apiKey: string): Api =>
  createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

const esperar = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds of `Retry-After` (rate limit, an authority or the database momentarily unavailable), or null. */
const retryAfter = (response: Response): number | null => {
  const s = Number(response.headers.get('retry-after'));
  return Number.isFinite(s) && s > 0 ? s : null;
};

/**
 * Creates a draft. The `Idempotency-Key` makes a retry of the same call (a timeout, a dropped connection) return the
 * draft the first one created instead of a second draft: keep the key with the request you retry.
 */
export async function criarRascunho(api: Api, rascunho: RascunhoCte, chave: string = randomUUID()): Promise<string> {
  const { data, error, response } = await api.POST('/v1/fiscal/cte', { body: rascunho, params: { header: { 'idempotency-key': chave } } });
  if (error) throw new FalhaDaApi(response.status, error.error);
  return data.data.id;
}

export interface OpcoesDeEspera {
  /** Pause between polls while the result is unknown. */
  intervaloMs?: number;
  /** Gives up after this long. */
  limiteMs?: number;
}

/**
 * Issues a draft and polls until the authority's answer is known (`conclusivo`): authorized, rejected or denied. While
 * the result is unknown the API never issues twice, so polling is always safe; a 429 or 503 waits `Retry-After`.
 */
export async function emitirEAguardar(api: Api, cteId: string, opcoes: OpcoesDeEspera = {}): Promise<EmissaoCte> {
  const intervaloMs = opcoes.intervaloMs ?? 1_000;
  const limite = Date.now() + (opcoes.limiteMs ?? 120_000);
  const path = { cte_uuid: cteId };
  const pedido = await api.POST('/v1/fiscal/cte/{cte_uuid}/emissao', { params: { path } });
  if (pedido.error) throw new FalhaDaApi(pedido.response.status, pedido.error.error);
  if (pedido.data.data.conclusivo) return pedido.data.data;
  while (Date.now() < limite) {
    const { data, error, response } = await api.POST('/v1/fiscal/cte/{cte_uuid}/consulta', { params: { path } });
    if (error) {
      const pausa = response.status === 429 || response.status === 503 ? retryAfter(response) : null;
      if (pausa === null) throw new FalhaDaApi(response.status, error.error);
      await esperar(pausa * 1_000);
      continue;
    }
    // 200 once the result is known, 202 while it is not.
    if (data.data.conclusivo) return data.data;
    await esperar(intervaloMs);
  }
  throw new Error(`CT-e ${cteId}: no conclusive result within the time limit; poll again later (never issue again)`);
}

export type TipoDeWebhook = components['schemas']['WebhookInput']['eventos'][number];

/**
 * Registers a webhook endpoint for `eventos`; answers its id and its signing secret, which the API shows only now:
 * keep it where the receiver reads it.
 */
export async function registrarWebhook(api: Api, url: string, eventos: TipoDeWebhook[]): Promise<{ id: string; secret: string }> {
  const { data, error, response } = await api.POST('/v1/webhooks', { body: { url, eventos } });
  if (error) throw new FalhaDaApi(response.status, error.error);
  return { id: data.data.id, secret: data.data.secret };
}

export async function removerWebhook(api: Api, id: string): Promise<void> {
  const { error, response } = await api.DELETE('/v1/webhooks/{id}', { params: { path: { id } } });
  if (error) throw new FalhaDaApi(response.status, error.error);
}
