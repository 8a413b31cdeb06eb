import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ConsultaDistribuicaoInput,
  ConsultasDistribuicao,
  DataEnvelope,
  Distribuicao,
  DistribuicaoAlteracao,
  DocumentoDistribuicao,
  DocumentoDistribuicaoParams,
  DocumentosDistribuicaoQuery,
  ListEnvelope,
} from '@frete/contracts';
import { Rejection } from '@frete/domain';
import { distribuicaoDe, distribuicaoDocumentoDe, type DistribuicaoDocumentoRow, distribuicaoDocumentos } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { enviarXmlArquivado, respostasXmlArquivado } from './xml-arquivado';
import { listOf, pageOf } from '../../paging';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

const TAGS = ['Distribuição'];

const iso = (d: Date | null) => d?.toISOString() ?? null;

const documentoView = (r: DistribuicaoDocumentoRow) => ({
  servico: r.servico,
  nsu: r.nsu,
  schema: r.schema,
  chave: r.chave,
  destino: r.destino,
  erro: r.erro,
  sha256: r.sha256,
  xml_disponivel: r.sha256 !== null,
  consulta_id: r.consulta_id,
  recebido_em: r.recebido_em.toISOString(),
});

/**
 * The company's consultation of the national distribution (issue 30): its state, turning it on or off, consulting
 * now, and the documents it delivered, kept as received.
 */
export const distribuicaoRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    const estado = async (companyId: string) => {
      const d = await distribuicaoDe(deps.pool, companyId, env);
      return {
        data: {
          habilitada: d.habilitada,
          servicos: d.servicos.map((s) => ({
            servico: s.servico,
            ultimo_nsu: s.ultimo_nsu,
            max_nsu: s.max_nsu,
            proxima_consulta: iso(s.proxima_consulta),
            bloqueado_ate: iso(s.bloqueado_ate),
            ultimo_cstat: s.ultimo_cstat,
            ultimo_motivo: s.ultimo_motivo,
            ultima_consulta_em: iso(s.ultima_consulta_em),
            consulta_em_andamento: s.consulta_em_andamento && {
              consulta_id: s.consulta_em_andamento.consulta_id,
              origem: s.consulta_em_andamento.origem,
              solicitada_em: s.consulta_em_andamento.solicitada_em.toISOString(),
            },
            ultima_falha: s.ultima_falha && { motivo: s.ultima_falha.motivo, falhou_em: s.ultima_falha.falhou_em.toISOString() },
          })),
        },
        environment: env,
      };
    };

    app.get(
      '/distribuicao',
      {
        schema: {
          operationId: 'obterDistribuicao',
          tags: TAGS,
          summary: "The company's consultation of the national distribution: enabled, NSU reached, waits and blocks, per service",
          description:
            'Both services always (`cte`: CTeDistribuicaoDFe, `nfe`: NFeDistribuicaoDFe). Before any consultation: `ultimo_nsu` ' +
            "`000000000000000` and nulls; `habilitada` is the company's choice, else true in homologação and false in produção.",
          response: { 200: DataEnvelope(Type.Ref(Distribuicao)), ...errors() },
        },
      },
      async (request) => estado(principalOf(request).companyId),
    );

    app.put(
      '/distribuicao',
      {
        schema: {
          operationId: 'alterarDistribuicao',
          tags: TAGS,
          summary: 'Turns the consultation of the national distribution on or off',
          description:
            '`{ "habilitada": true|false }`, nothing else (400 `validacao`). Off: the schedule consults nothing and POST ' +
            '/fiscal/distribuicao/consultas answers 422 `distribuicao_desabilitada`; the NSU reached is kept, so turning it on ' +
            'again continues where it stopped. 200 with the state.',
          body: Type.Ref(DistribuicaoAlteracao),
          response: { 200: DataEnvelope(Type.Ref(Distribuicao)), ...errors(400) },
        },
        // Before Ajv, which coerces scalars: `null` would become false and turn the consultation off, `"sim"` an error
        // only by luck. The switch takes the two JSON booleans and nothing else.
        preValidation: async (request) => {
          const body = request.body as { habilitada?: unknown } | null | undefined;
          const valor = body !== null && typeof body === 'object' && !Array.isArray(body) ? body.habilitada : undefined;
          if (valor !== undefined && typeof valor !== 'boolean') {
            throw new ApiError('validacao', 'habilitada: must be true or false', {
              fields: [{ field: 'habilitada', message: 'must be true or false' }],
            });
          }
        },
      },
      async (request) => {
        const p = principalOf(request);
        await deps.handlers.distribuicao.alterar(commandContext(request, deps), (request.body as DistribuicaoAlteracao).habilitada);
        await deps.readYourWrites.waitFor(p.companyId);
        return estado(p.companyId);
      },
    );

    app.post(
      '/distribuicao/consultas',
      {
        schema: {
          operationId: 'consultarDistribuicao',
          tags: TAGS,
          summary: 'Consults the national distribution now (both services, or the one named)',
          description:
            'Optional body `{ "servico": "cte"|"nfe" }`; without it, both. 202 with the consultations asked: the processor runs ' +
            'each (continuing from `ultimo_nsu`) and records what arrives where an upload would go; GET /fiscal/distribuicao shows ' +
            'the outcome. A service in its wait (an hour after 137, or after an answer that reached `maxNSU`) or in a 656 block is ' +
            'not asked (a call then would restart the block): when every service asked is, 429 `consulta_bloqueada` with ' +
            '`Retry-After` (seconds) and `error.details.tentar_apos` (ISO instant) and `error.details.servicos`. 422 ' +
            '`distribuicao_desabilitada` when the company turned it off (PUT /fiscal/distribuicao), `distribuicao_sem_uf` when the ' +
            "fiscal configuration has no address (the service asks for the party's UF). In production without a contracted " +
            'provider, 503 `provedor_indisponivel` at once, nothing asked.',
          body: Type.Ref(ConsultaDistribuicaoInput),
          response: {
            202: DataEnvelope(Type.Ref(ConsultasDistribuicao)),
            ...errors(
              400,
              422,
              429,
              503,
              'consulta_bloqueada',
              'distribuicao_desabilitada',
              'distribuicao_sem_uf',
              'provedor_indisponivel',
            ),
          },
        },
        // The body is optional: a request without one is the empty body (both services).
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const { servico } = request.body as ConsultaDistribuicaoInput;
        let consultas;
        try {
          ({ consultas } = await deps.handlers.distribuicao.consultar(commandContext(request, deps), servico ? [servico] : null));
        } catch (e) {
          throw bloqueio(e, deps.clock());
        }
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(202).send({
          data: { consultas: consultas.map((c) => ({ servico: c.servico, consulta_id: c.consulta_id, ultimo_nsu: c.ult_nsu })) },
          environment: env,
        });
      },
    );

    app.get(
      '/distribuicao/documentos',
      {
        schema: {
          operationId: 'listarDocumentosDistribuicao',
          tags: TAGS,
          summary: 'Lists the documents the national distribution delivered to the company, newest first',
          description:
            'Every document of every answer, whatever became of it (`destino`): CT-e in the inbox, NF-e in the NF-e list, ' +
            'cancellations of inbox CT-e, and the ones only kept (summaries `resNFe`/`resEvento`, other events). Filters ' +
            '`servico`, `destino`, `chave` (44 digits). Ordered by receipt, then service, then NSU (highest first).',
          querystring: DocumentosDistribuicaoQuery,
          response: { 200: ListEnvelope(Type.Ref(DocumentoDistribuicao)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const q = request.query;
        const paging = pageOf(q);
        const { rows, total, next_cursor } = await distribuicaoDocumentos(deps.pool, p.companyId, {
          servico: q.servico,
          destino: q.destino,
          chave: q.chave,
          ...paging,
        });
        return listOf(rows.map(documentoView), paging, total, env, next_cursor);
      },
    );

    app.get(
      '/distribuicao/documentos/:servico/:nsu',
      {
        schema: {
          operationId: 'baixarDocumentoDistribuicao',
          tags: TAGS,
          summary: 'A delivered document by its service and NSU: the bytes as the service distributed them (not reserialized)',
          description:
            '`application/xml`, the unzipped content of the `docZip`. 404 `nao_encontrado` for an NSU the company did not receive, ' +
            'and for an unreadable one (`destino` `ilegivel`: no bytes were kept; the listing shows its `erro`). 503 `xml_indisponivel` ' +
            'when the archive cannot be read (retry).',
          params: DocumentoDistribuicaoParams,
          produces: ['application/xml'],
          response: respostasXmlArquivado(),
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const { servico, nsu } = request.params;
        const row = await distribuicaoDocumentoDe(deps.pool, p.companyId, servico, nsu);
        if (!row) throw new ApiError('nao_encontrado', `no ${servico} document with NSU ${nsu} was distributed to this company`);
        if (row.sha256 === null)
          throw new ApiError('nao_encontrado', `the ${servico} document with NSU ${nsu} was unreadable: no bytes were kept`);
        return enviarXmlArquivado(deps, reply, row.sha256, 'inline', `${servico}-${nsu}.xml`);
      },
    );
  };

/**
 * `consulta_bloqueada` with `Retry-After` counted on the service's clock, the one `tentar_apos` was decided on (the
 * error handler's count on the wall clock would be off wherever the service clock is not the wall's: tests, replays).
 */
function bloqueio(e: unknown, agora: Date): unknown {
  if (!(e instanceof Rejection) || e.code !== 'consulta_bloqueada' || typeof e.details?.tentar_apos !== 'string') return e;
  const segundos = Math.max(1, Math.ceil((Date.parse(e.details.tentar_apos) - agora.getTime()) / 1000));
  return new ApiError(e.code, e.message, e.details, { 'Retry-After': String(segundos) });
}
