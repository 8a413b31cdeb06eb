import { type TSchema, Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyRequest } from 'fastify';
import { DataEnvelope, type ErrorCode } from '@frete/contracts';
import { type ContextoEmpresa } from '@frete/application';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

/**
 * `POST .../consulta` of a document in issue (CT-e or MDF-e): its handler refuses one never issued and, while the
 * result is unknown, asks the authority; then the envelope, 200 once conclusive and 202 while not.
 */
export async function consultarEmissao<R extends { situacao: string }, E extends { conclusivo: boolean }>(
  deps: ApiDeps,
  companyId: string,
  o: {
    ler: () => Promise<R>;
    consultar: (row: R) => Promise<void>;
    envelope: (row: R) => E;
    /** Situations that answer 200 besides the conclusive ones. */
    conhecido?: (row: R) => boolean;
  },
): Promise<{ status: 200 | 202; envelope: E }> {
  await deps.readYourWrites.waitFor(companyId);
  const row = await o.ler();
  await o.consultar(row);
  await deps.readYourWrites.waitFor(companyId);
  const after = await o.ler();
  const envelope = o.envelope(after);
  return { status: envelope.conclusivo || o.conhecido?.(after) ? 200 : 202, envelope };
}

/** The columns of a document's read model that its issue envelope shows. */
interface LinhaEmitida<S extends string> {
  situacao: S;
  chave: string | null;
  serie: number | null;
  numero: string | null;
  retorno: { cstat: number | null; motivo: string } | null;
}

/**
 * Where a document's issue stands (`CteIssueEnvelope`, `MdfeIssueEnvelope`) and where to poll it: conclusive once in
 * one of the kind's final situations.
 */
export const envelopeDaEmissao =
  (documento: 'cte' | 'mdfe', conclusivas: readonly string[]) =>
  <S extends string>(id: string, r: LinhaEmitida<S>) => ({
    id,
    situacao: r.situacao,
    access_key: r.chave,
    serie: r.serie,
    numero: r.numero === null ? null : Number(r.numero),
    conclusivo: conclusivas.includes(r.situacao),
    retorno: r.retorno,
    consulta: `/v1/fiscal/${documento}/${id}/consulta`,
  });

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** What each kind of document gives the routes of its issue. */
export interface DocumentoEmitido<R extends LinhaEmitida<string>, E extends { conclusivo: boolean }> {
  /** The document's resource (`/cte/:cte_uuid`) and the path parameter that names it. */
  recurso: string;
  parametro: string;
  params: TSchema;
  /** The issue envelope's schema (`CteIssueEnvelope`, `MdfeIssueEnvelope`). */
  envelopeSchema: TSchema;
  tags: string[];
  emissao: { operationId: string; summary: string; description: string; erros: ErrorCode[] };
  /** What `consulta` says of this kind (its summary is the same for all). */
  consulta: { operationId: string; description: string; erros: ErrorCode[] };
  /** One own document by the id of the path (not found otherwise). */
  ler: (companyId: string, uuid: string) => Promise<R>;
  id: (row: R) => string;
  handler: {
    solicitarEmissao: (ctx: ContextoEmpresa, id: string) => Promise<void>;
    consultar: (ctx: ContextoEmpresa, id: string) => Promise<void>;
  };
  envelope: (row: R) => E;
  conhecido?: (row: R) => boolean;
}

/**
 * The two routes of an issue, the same for every kind of document: `POST .../emissao` requests it (202 with the
 * envelope) and `POST .../consulta` polls it (200 once the result is known, 202 while it is not).
 */
export function rotasDeEmissao<R extends LinhaEmitida<string>, E extends { conclusivo: boolean }>(
  app: App,
  deps: ApiDeps,
  d: DocumentoEmitido<R, E>,
): void {
  const env = deps.config.environment;
  const uuidOf = (request: FastifyRequest) => (request.params as Record<string, string>)[d.parametro] ?? '';

  app.post(
    `${d.recurso}/emissao`,
    {
      schema: {
        operationId: d.emissao.operationId,
        tags: d.tags,
        summary: d.emissao.summary,
        description: d.emissao.description,
        params: d.params,
        response: { 202: DataEnvelope(Type.Ref(d.envelopeSchema)), ...errors(404, ...d.emissao.erros) },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      await deps.readYourWrites.waitFor(p.companyId);
      const row = await d.ler(p.companyId, uuidOf(request));
      await d.handler.solicitarEmissao(commandContext(request, deps), d.id(row));
      await deps.readYourWrites.waitFor(p.companyId);
      return reply.status(202).send({ data: d.envelope(await d.ler(p.companyId, d.id(row))), environment: env });
    },
  );

  app.post(
    `${d.recurso}/consulta`,
    {
      schema: {
        operationId: d.consulta.operationId,
        tags: d.tags,
        summary: 'Polls the result of an issue: 200 when it is known, 202 while it is not',
        description: d.consulta.description,
        params: d.params,
        response: {
          200: DataEnvelope(Type.Ref(d.envelopeSchema)),
          202: DataEnvelope(Type.Ref(d.envelopeSchema)),
          ...errors(404, ...d.consulta.erros),
        },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const { status, envelope } = await consultarEmissao(deps, p.companyId, {
        ler: () => d.ler(p.companyId, uuidOf(request)),
        consultar: (row) => d.handler.consultar(commandContext(request, deps), d.id(row)),
        envelope: d.envelope,
        conhecido: d.conhecido,
      });
      return reply.status(status).send({ data: envelope, environment: env });
    },
  );
}
