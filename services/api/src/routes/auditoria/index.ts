import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DataEnvelope,
  EventoAuditado,
  EventosAuditoriaQuery,
  HistoricoRecurso,
  RecursoAuditadoParam,
  VerificacaoCadeia,
} from '@frete/contracts';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

const TAG = 'Auditoria';
const NDJSON = 'application/x-ndjson';

const HISTORICO =
  'Every event of the resource in the order it was recorded: type, schema version, time, actor, request id, correlation, causation, ' +
  "the data in its type's current shape (and, when it was recorded in an older shape, `recorded_schema_version` and `recorded_data` " +
  "exactly as recorded), its place in the company's chain and its hashes. The resource must be one the caller can GET: another " +
  "company's, or one that does not exist, is 404 `nao_encontrado`. A batch requested under a grant is its subcontractor's: the " +
  'contractor that requested it reads its own record of the request and its outcome (`solicitacao_lote.aceita`, ' +
  '`solicitacao_lote.concluida`).';

const EVENTOS =
  "The company's whole event log in chain order (`position` 1, 2, 3…), filtered by `tipos`, `de` and `ate`, resumed after `apos`. " +
  `With \`Accept: ${NDJSON}\` it is streamed as NDJSON (one event per line) from \`apos\` to the chain's head when the request ` +
  'started: `X-Eventos-Total` says how many lines will come (the progress of a large export) and `X-Posicao-Final` where the export ' +
  'ends; a broken export resumes with `apos` = the last `position` received. Otherwise JSON pages of `limite` events, `meta.proxima` ' +
  'being the next `apos` (null at the end). 400 `validacao` for an unknown event type or `de` not before `ate`.';

/** The auditors' interface (scope `auditoria`, read-only): the event history as recorded, and its hash chain. */
export const auditoriaRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;
    const config = { scope: 'auditoria' as const };

    app.get(
      '/auditoria/historico/:recurso/:id',
      {
        config,
        schema: {
          operationId: 'obterHistoricoRecurso',
          tags: [TAG],
          summary: "A resource's history: every event, in order, as recorded",
          description: HISTORICO,
          params: RecursoAuditadoParam,
          response: { 200: DataEnvelope(Type.Ref(HistoricoRecurso)), ...errors(400, 404, 503, 'auditoria_indisponivel') },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const eventos = await deps.auditoria.historico(
          { companyId: p.companyId, cnpj: p.company.cnpj },
          request.params.recurso,
          request.params.id,
        );
        return { data: { eventos }, environment: env };
      },
    );

    app.get(
      '/auditoria/eventos',
      {
        config,
        schema: {
          operationId: 'listarEventosAuditoria',
          tags: [TAG],
          summary: "The company's event log: JSON pages, or NDJSON streamed and resumable",
          description: EVENTOS,
          querystring: EventosAuditoriaQuery,
          response: {
            200: {
              description: `JSON pages; with \`Accept: ${NDJSON}\`, one \`EventoAuditado\` per line`,
              headers: {
                'X-Eventos-Total': { type: 'integer', description: `NDJSON only: how many events the export gives` },
                'X-Posicao-Final': { type: 'integer', description: "NDJSON only: the chain's head when the export started" },
              },
              content: {
                'application/json': { schema: Type.Ref('PaginaEventosAuditoria') },
                [NDJSON]: { schema: Type.Ref(EventoAuditado) },
              },
            },
            ...errors(400, 503, 'auditoria_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        if (!(request.headers.accept ?? '').includes(NDJSON)) {
          const { eventos, proxima } = await deps.auditoria.pagina(p.companyId, request.query);
          return { data: eventos, meta: { apos: request.query.apos ?? 0, limite: request.query.limite ?? 100, proxima }, environment: env };
        }
        const exportacao = await deps.auditoria.exportar(p.companyId, request.query);
        async function* linhas() {
          for await (const e of exportacao.eventos) yield `${JSON.stringify(e)}\n`;
        }
        return reply
          .header('content-type', `${NDJSON}; charset=utf-8`)
          .header('x-eventos-total', String(exportacao.total))
          .header('x-posicao-final', String(exportacao.ultimaPosicao))
          .send(Readable.from(linhas()));
      },
    );

    app.get(
      '/auditoria/verificacao',
      {
        config,
        schema: {
          operationId: 'verificarCadeiaAuditoria',
          tags: [TAG],
          summary: "Verifies the company's hash chain",
          description:
            "Recomputes the hash of every event of the caller's company and its link to the previous one: `integra` false names the first " +
            'event that does not match (an edited, removed or reordered event). The whole chain is read: it takes time on a long log.',
          response: { 200: DataEnvelope(Type.Ref(VerificacaoCadeia)), ...errors(503, 'auditoria_indisponivel') },
        },
      },
      async (request) => {
        const p = principalOf(request);
        return { data: await deps.auditoria.verificacao(p.companyId), environment: env };
      },
    );
  };
