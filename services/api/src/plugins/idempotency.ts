import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import { type FastifyRequest, type preHandlerAsyncHookHandler, type RouteOptions } from 'fastify';
import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import { ErrorEnvelope } from '@frete/contracts';
import { type IdempotencyStore, type IdempotentRequest, type StoredAnswer } from '@frete/platform';
import stringify from 'safe-stable-stringify';
import { ApiError } from '../errors';
import { type ReceivedPart } from '../multipart';
import { type ApiDeps } from '../deps';
import { IdempotentReplay, sendReplay } from '../idempotent-replay';

/** The header's value: a token of 8 to 128 characters (a UUID, a ULID, `pedido-4711-tentativa-1`), bare or in quotes. */
export const IDEMPOTENCY_KEY = Type.String({
  minLength: 8,
  maxLength: 128,
  pattern: '^[A-Za-z0-9._:-]+$',
  description:
    'Makes a retry safe (IETF draft-ietf-httpapi-idempotency-key-header): the same key with the same request replays the first ' +
    'answer (`Idempotent-Replayed: true`); the same key with another request is 422 `idempotency_key_reutilizada`; a retry while the ' +
    'first still runs is 409 `idempotency_key_em_uso`. Keys are per company and kept 24 h (IDEMPOTENCY_TTL_S). Bare or quoted ' +
    '(`"…"`, the draft\'s structured-field string): the same key.',
});

/** The answer's headers a replay gives again; the rest (request id, rate limit) belong to each request. */
const REPLAYED_HEADERS = ['content-type', 'location', 'content-location', 'content-disposition', 'etag', 'last-modified'];

export interface IdempotencyState {
  request: IdempotentRequest;
  claimId: string | null;
  replayed: boolean;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The key's route: POSTs that need a credential, unless a route opts out with `config.idempotency: false`. */
function applies(route: Pick<RouteOptions, 'method' | 'config'>): boolean {
  const methods = [route.method].flat();
  const config = route.config as { public?: boolean; idempotency?: boolean } | undefined;
  return methods.includes('POST') && !config?.public && config?.idempotency !== false;
}

/** The refusal `code` adds to a route's `status` response, keeping the codes the route already lists (in backticks: see `openapi.ts`). */
function withCode(own: TSchema | undefined, code: string, description: string): TSchema {
  const ownDescription = (own as { description?: string } | undefined)?.description;
  return Type.Ref(ErrorEnvelope, { description: ownDescription ? `${ownDescription}; also \`${code}\`` : `\`${code}\`: ${description}` });
}

/** Declares the header and the two refusals on the route's schema, so validation and the OpenAPI document carry them. */
function declare(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as { headers?: TSchema; response?: Record<string, TSchema> };
  const headers = schema.headers as TObject | undefined;
  const header = Type.Optional(IDEMPOTENCY_KEY);
  const response = schema.response ?? {};
  route.schema = {
    ...schema,
    headers: headers?.properties
      ? { ...headers, properties: { ...headers.properties, 'idempotency-key': header } }
      : Type.Object({ 'idempotency-key': header }),
    response: {
      ...response,
      409: withCode(
        response[409],
        'idempotency_key_em_uso',
        'a request with the same `Idempotency-Key` is still running; retry after `Retry-After`',
      ),
      422: withCode(response[422], 'idempotency_key_reutilizada', 'the `Idempotency-Key` was already used for another request'),
    },
  };
}

/**
 * Claims the request's key, waiting a little for a duplicate that is still running; answers how the request goes on.
 * The wait lets a client's simultaneous copies of one request (a double click, a retry racing its original) all get
 * the one answer; past it the draft's 409.
 */
async function claim(store: IdempotencyStore, state: IdempotencyState, waitMs: number): Promise<StoredAnswer | null> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    const found = await store.claim(state.request);
    switch (found.kind) {
      case 'claimed':
        state.claimId = found.claimId;
        return null;
      case 'replay':
        state.replayed = true;
        return found.answer;
      case 'mismatch':
        throw new ApiError(
          'idempotency_key_reutilizada',
          found.method === state.request.method && found.path === state.request.path
            ? 'the Idempotency-Key was already used with another body; use a new key for a new request'
            : `the Idempotency-Key was already used for ${found.method} ${found.path.split('?')[0]}; use a new key for a new request`,
        );
      case 'in_flight': {
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new ApiError(
            'idempotency_key_em_uso',
            'a request with the same Idempotency-Key is still being processed; retry shortly',
            undefined,
            {
              'Retry-After': '1',
            },
          );
        }
        await sleep(Math.min(left, 25 * 2 ** Math.min(attempt, 3)));
      }
    }
  }
}

function stateOf(request: FastifyRequest, fingerprint: string): IdempotencyState | null {
  const key = request.headers['idempotency-key'];
  const companyId = request.principal?.companyId;
  if (typeof key !== 'string' || !companyId) return null;
  return { request: { companyId, key, method: request.method, path: request.url, fingerprint }, claimId: null, replayed: false };
}

/**
 * A multipart body is read in the handler, so its claim is made there (`readParts`), once every part is read and
 * before any is acted on. Its fingerprint is of the parts (names, file names, media types, the SHA-256 of each file,
 * field values, in order), never of the raw body, whose boundary every client draws anew for each request.
 */
export const fingerprintParts = (parts: ReceivedPart[]): string =>
  sha256(
    stringify(
      parts.map((p) =>
        p.type === 'file'
          ? { type: p.type, name: p.name, filename: p.filename, mimetype: p.mimetype, sha256: sha256(p.content) }
          : { type: p.type, name: p.name, value: p.value },
      ),
    ) ?? '',
  );

/**
 * `Idempotency-Key` on every POST that creates or acts (IETF draft-ietf-httpapi-idempotency-key-header), kept in
 * PostgreSQL per company. Only requests that reach their handler are remembered: a request refused by validation,
 * authentication or the rate limit acted on nothing and may be sent again as it is. Of those, an answer below 500
 * (but 429) is stored and replayed (a 422 stays a 422: the request is the same, so is the answer); a 5xx is forgotten, so a retry
 * runs again. Routes whose handlers derive ids from the key keep doing so: after the key expires a retry still lands
 * on the same resource.
 */
export const idempotency = (deps: Pick<ApiDeps, 'idempotency' | 'config'>) =>
  fp(async (app) => {
    app.decorateRequest('idempotency', null);
    app.decorateRequest('claimIdempotency', null);
    const claimHook: preHandlerAsyncHookHandler = async function (request, reply) {
      if (request.headers['idempotency-key'] === undefined) return;
      if (request.isMultipart()) {
        request.claimIdempotency = async (fingerprint) => {
          const state = stateOf(request, fingerprint);
          if (!state) return;
          request.idempotency = state;
          const answer = await claim(deps.idempotency, state, deps.config.idempotency.inFlightWaitMs);
          if (answer) throw new IdempotentReplay(answer);
        };
        return;
      }
      // Parsed JSON and form bodies are fingerprinted by their content, keys sorted: spacing and member order do not matter.
      const state = stateOf(request, sha256(stringify(request.body ?? null) ?? ''));
      if (!state) return;
      request.idempotency = state;
      const answer = await claim(deps.idempotency, state, deps.config.idempotency.inFlightWaitMs);
      if (answer) return sendReplay(request, reply, answer);
    };
    // The draft writes the key as a structured-field string (`"8e03978e-…"`); the bare token is what most clients send.
    // Both are the same key: the quotes go before validation, and before a handler derives an id from the key.
    app.addHook('onRequest', (request, _reply, done) => {
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string' && key.length > 2 && key.startsWith('"') && key.endsWith('"'))
        request.headers['idempotency-key'] = key.slice(1, -1);
      done();
    });
    app.addHook('onRoute', (route) => {
      if (!applies(route)) return;
      route.config = { ...(route.config ?? {}), idempotency: true };
      declare(route);
      // A route's own hooks run after every scope's: the claim comes after authentication, the rate limits (the fiscal
      // one is a scope's preHandler) and validation, so a request any of them refuses holds and stores nothing.
      route.preHandler = [...[route.preHandler ?? []].flat(), claimHook];
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const state = request.idempotency;
      if (!state?.claimId || state.replayed) return payload;
      const { claimId } = state;
      state.claimId = null;
      const storable = typeof payload === 'string' || Buffer.isBuffer(payload) || payload === null || payload === undefined;
      try {
        // 429 and 5xx say "not now": a retry must run again rather than be told the same.
        if (reply.statusCode >= 500 || reply.statusCode === 429 || !storable) {
          await deps.idempotency.release(state.request, claimId);
        } else {
          const headers: Record<string, string> = {};
          for (const name of REPLAYED_HEADERS) {
            const value = reply.getHeader(name);
            if (value !== undefined) headers[name] = String(value);
          }
          const body = payload === null || payload === undefined ? Buffer.alloc(0) : Buffer.from(payload as string | Buffer);
          await deps.idempotency.complete(state.request, claimId, { status: reply.statusCode, headers, body });
        }
      } catch (err) {
        // The answer itself is right: it goes out. The key stays claimed until its lease ends, then a retry runs again.
        request.log.warn({ err }, 'idempotency key not recorded');
      }
      return payload;
    });
  });
