import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type FastifyInstance } from 'fastify';
import { type Pool } from 'pg';
import { DataEnvelope, type ErrorCode, ListEnvelope, RegistroParams } from '@frete/contracts';
import { type RegistroHandler } from '@frete/application';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { listOf, pageOf } from '../../paging';

/** A path id: a positive integer, or nothing (which answers 404 like an unknown one). */
export const registroId = (raw: string): number | null => (/^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : null);

export interface Documentacao {
  /** The operation's stable OpenAPI id (`cadastrarMotorista`). */
  operationId: string;
  summary: string;
  description?: string;
}

type Paging = { page: number; per_page: number };

/** One company registry over HTTP: what differs between drivers, vehicles and tax rules. */
export interface RegistroRoutesOptions<TInput extends TSchema, TQuery extends TSchema, TView extends TSchema, Row> {
  /** The collection's path (`/motoristas`); an entry is `<path>/:id`. */
  path: string;
  tag: string;
  schemas: { input: TInput; query: TQuery; view: TView; params?: TSchema };
  docs: { cadastrar: Documentacao; listar: Documentacao; ler: Documentacao; alterar: Documentacao; remover: Documentacao };
  handler: RegistroHandler<Static<TInput>, Row>;
  /** Read side: the entry and the page of entries (filtered by the list's query) as the read model has them. */
  porId: (pool: Pool, companyId: string, id: number) => Promise<Row | null>;
  /** `next_cursor` where the list offers a cursor (drivers, vehicles); absent where it pages only (tax rules). */
  listar: (
    pool: Pool,
    companyId: string,
    filtro: Static<TQuery> & Paging,
  ) => Promise<{ rows: Row[]; total: number; next_cursor?: string | null }>;
  toView: (row: Row) => Static<TView>;
  /** The code of a write that repeats another active entry's key (`motorista_duplicado`). */
  duplicado: ErrorCode;
  /** Other 422 codes a write may answer (a tax rule whose rates the authority rejects: `aliquota_rejeitada_autoridade`). */
  outrosErros?: ErrorCode[];
  /** The 404 message for a path id. */
  naoEncontrado: (id: string) => string;
}

const documentado = ({ operationId, summary, description }: Documentacao) =>
  description === undefined ? { operationId, summary } : { operationId, summary, description };

/**
 * The registries' CRUD: POST 201, GET list (paged), GET by id, PUT (the whole entry), DELETE 204. Writes go through
 * the registry's handler, which answers the entry as recorded; reads come from the read model.
 */
export function registroRoutes<TInput extends TSchema, TQuery extends TSchema, TView extends TSchema, Row>(
  app: FastifyInstance,
  deps: ApiDeps,
  o: RegistroRoutesOptions<TInput, TQuery, TView, Row>,
): void {
  const env = deps.config.environment;
  const byId = `${o.path}/:id`;
  const params = o.schemas.params ?? RegistroParams;
  const one = DataEnvelope(o.schemas.view);

  const idOf = (raw: string): number => {
    const id = registroId(raw);
    if (id === null) throw new ApiError('nao_encontrado', o.naoEncontrado(raw));
    return id;
  };

  /**
   * After a write: the answer is the entry as the write recorded it, in the read model's shape; the bounded wait lets
   * the reads that follow see the write as usual, and its timing out changes nothing in the answer.
   */
  const answer = async (companyId: string, row: Row) => {
    await deps.readYourWrites.waitFor(companyId);
    return { data: o.toView(row), environment: env };
  };

  app.post<{ Body: Static<TInput> }>(
    o.path,
    {
      schema: {
        tags: [o.tag],
        ...documentado(o.docs.cadastrar),
        body: o.schemas.input,
        response: { 201: one, ...errors(400, o.duplicado, ...(o.outrosErros ?? [])) },
      },
    },
    async (request, reply) => {
      const ctx = commandContext(request, deps);
      return reply.status(201).send(await answer(ctx.companyId, await o.handler.cadastrar(ctx, request.body)));
    },
  );

  app.get<{ Querystring: Static<TQuery> }>(
    o.path,
    {
      schema: {
        tags: [o.tag],
        ...documentado(o.docs.listar),
        querystring: o.schemas.query,
        response: { 200: ListEnvelope(o.schemas.view), ...errors(400) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const paging = pageOf(request.query as { page?: number; per_page?: number });
      const { rows, total, next_cursor } = await o.listar(deps.pool, p.companyId, Object.assign({}, request.query, paging));
      return listOf(rows.map(o.toView), paging, total, env, next_cursor);
    },
  );

  app.get<{ Params: { id: string } }>(
    byId,
    {
      schema: { tags: [o.tag], ...documentado(o.docs.ler), params, response: { 200: one, ...errors(404) } },
    },
    async (request) => {
      const p = principalOf(request);
      const found = await o.porId(deps.pool, p.companyId, idOf(request.params.id));
      if (!found) throw new ApiError('nao_encontrado', o.naoEncontrado(request.params.id));
      return { data: o.toView(found), environment: env };
    },
  );

  app.put<{ Params: { id: string }; Body: Static<TInput> }>(
    byId,
    {
      schema: {
        tags: [o.tag],
        ...documentado(o.docs.alterar),
        params,
        body: o.schemas.input,
        response: { 200: one, ...errors(400, 404, o.duplicado, ...(o.outrosErros ?? [])) },
      },
    },
    async (request) => {
      const ctx = commandContext(request, deps);
      return answer(ctx.companyId, await o.handler.alterar(ctx, idOf(request.params.id), request.body));
    },
  );

  app.delete<{ Params: { id: string } }>(
    byId,
    {
      schema: {
        tags: [o.tag],
        ...documentado(o.docs.remover),
        params,
        response: { 204: Type.Null({ description: 'Removed' }), ...errors(404) },
      },
    },
    async (request, reply) => {
      await o.handler.remover(commandContext(request, deps), idOf(request.params.id));
      return reply.status(204).send(null);
    },
  );
}
