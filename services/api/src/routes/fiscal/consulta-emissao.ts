import { type TSchema, Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FastifyRequest } from 'fastify';
import { DataEnvelope, type ErrorCode } from '@frete/contracts';
import { type EspecieDocumento } from '@frete/domain';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

/** The columns of a document's read model that its issue envelope shows, and its id under the kind's column. */
type LinhaEmitida = {
  situacao: string;
  chave: string | null;
  serie: number | null;
  numero: string | null;
  retorno: { cstat: number | null; motivo: string } | null;
} & { [K in EspecieDocumento['campoId']]?: string };

/** The document's id, under its kind's column (`cte_id`, `mdfe_id`). */
const idDe = (documento: EspecieDocumento, row: LinhaEmitida): string => row[documento.campoId] ?? '';

/**
 * Where a document's issue stands (`CteIssueEnvelope`, `MdfeIssueEnvelope`) and where to poll it: conclusive once in
 * one of the kind's final situations.
 */
export const envelopeDaEmissao =
  (documento: EspecieDocumento) =>
  <R extends LinhaEmitida>(r: R) => {
    const id = idDe(documento, r);
    return {
      id,
      situacao: r.situacao,
      access_key: r.chave,
      serie: r.serie,
      numero: r.numero === null ? null : Number(r.numero),
      conclusivo: documento.conclusivas.includes(r.situacao),
      retorno: r.retorno,
      consulta: `/v1/fiscal/${documento.recurso}/${id}/consulta`,
    };
  };

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** What the routes of an issue need besides the kind's description: the API's own schemas, texts and read. */
export interface RotasDaEmissao<R extends LinhaEmitida> {
  /** The path parameter's schema and the issue envelope's (`CteIssueEnvelope`, `MdfeIssueEnvelope`). */
  params: TSchema;
  envelopeSchema: TSchema;
  emissao: { summary: string; description: string; erros: ErrorCode[] };
  /** What `consulta` says of this kind (its summary is the same for all). */
  consulta: { description: string; erros: ErrorCode[] };
  /** One own document by the id of the path (not found otherwise). */
  ler: (companyId: string, uuid: string) => Promise<R>;
}

/**
 * The two routes of an issue, the same for every kind of document (`CTE`, `MDFE`): `POST .../emissao` requests it
 * (202 with the envelope) and `POST .../consulta` polls it (200 once the result is known, 202 while it is not). The
 * kind names the path, the tag, the operation ids (`emitirCte`, `consultarEmissaoCte`), the handler and the envelope.
 */
export function rotasDeEmissao<R extends LinhaEmitida>(app: App, deps: ApiDeps, documento: EspecieDocumento, r: RotasDaEmissao<R>): void {
  const env = deps.config.environment;
  const uuidOf = (request: FastifyRequest) => (request.params as Record<string, string>)[documento.parametro] ?? '';
  const recurso = `/${documento.recurso}/:${documento.parametro}`;
  const sufixo = documento.recurso.charAt(0).toUpperCase() + documento.recurso.slice(1);
  const tags = [documento.nome];
  const handler = deps.handlers[documento.recurso];
  const envelope = envelopeDaEmissao(documento);

  app.post(
    `${recurso}/emissao`,
    {
      schema: {
        operationId: `emitir${sufixo}`,
        tags,
        summary: r.emissao.summary,
        description: r.emissao.description,
        params: r.params,
        response: { 202: DataEnvelope(Type.Ref(r.envelopeSchema)), ...errors(404, ...r.emissao.erros) },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      await deps.readYourWrites.waitFor(p.companyId);
      const id = idDe(documento, await r.ler(p.companyId, uuidOf(request)));
      await handler.solicitarEmissao(commandContext(request, deps), id);
      await deps.readYourWrites.waitFor(p.companyId);
      return reply.status(202).send({ data: envelope(await r.ler(p.companyId, id)), environment: env });
    },
  );

  app.post(
    `${recurso}/consulta`,
    {
      schema: {
        operationId: `consultarEmissao${sufixo}`,
        tags,
        summary: 'Polls the result of an issue: 200 when it is known, 202 while it is not',
        description: r.consulta.description,
        params: r.params,
        response: {
          200: DataEnvelope(Type.Ref(r.envelopeSchema)),
          202: DataEnvelope(Type.Ref(r.envelopeSchema)),
          ...errors(404, ...r.consulta.erros),
        },
      },
    },
    // The handler refuses one never issued and, while the result is unknown, asks the authority; the envelope is then
    // read after the consultation's events: 200 once conclusive (or in a known situation), 202 while not.
    async (request, reply) => {
      const p = principalOf(request);
      await deps.readYourWrites.waitFor(p.companyId);
      const id = idDe(documento, await r.ler(p.companyId, uuidOf(request)));
      await handler.consultar(commandContext(request, deps), id);
      await deps.readYourWrites.waitFor(p.companyId);
      const depois = await r.ler(p.companyId, id);
      const data = envelope(depois);
      const status = data.conclusivo || documento.conhecidas.includes(depois.situacao) ? 200 : 202;
      return reply.status(status).send({ data, environment: env });
    },
  );
}
