import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Cte, CteDraftInput, CteIdParam, CteQuery, CteSummary, DataEnvelope, ListEnvelope } from '@frete/contracts';
import { commandContext } from '../../command-context';
import { cteList, cteOf, type CteRow } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { enviarXmlArquivado, respostasXmlArquivado } from './xml-arquivado';
import { checkDateRange, listOf, pageOf } from '../../paging';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { CTE } from '@frete/domain';
import { cteView } from './cte-views';
import { documentoProprio } from './documento-proprio';

const TAGS = ['CT-e'];

/** One own CT-e of the caller. */
export const ownCte = documentoProprio(CTE, cteOf);

/**
 * Rows whose XML size the read model does not hold, with the archive's: an authorization recorded before its event
 * carried the size (issue 28) would otherwise show 0 bytes. One query for a page, none when every row has its size.
 */
async function comTamanhos<R extends CteRow>(deps: ApiDeps, rows: R[]): Promise<R[]> {
  const sem = rows.filter((r) => r.xml_sha256 !== null && r.xml_size_bytes === null).map((r) => r.xml_sha256!);
  if (sem.length === 0) return rows;
  const tamanhos = await deps.documents.tamanhos(sem);
  return rows.map((r) =>
    r.xml_sha256 !== null && r.xml_size_bytes === null ? { ...r, xml_size_bytes: tamanhos.get(r.xml_sha256) ?? null } : r,
  );
}

/** Reads of own CT-e (spec section 4, "CT-e"; ruling 22). */
export const cteRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.get(
      '/cte',
      {
        schema: {
          operationId: 'listarCte',
          tags: TAGS,
          summary: 'Own CT-e (issued here or delivered through POST /fiscal/cte-emitidos), newest first',
          querystring: CteQuery,
          response: { 200: ListEnvelope(Type.Ref(CteSummary)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const q = request.query;
        checkDateRange(q.from, q.to);
        const paging = pageOf(q);
        const { rows, total, next_cursor } = await cteList(deps.pool, p.companyId, {
          situacao: q.status,
          from: q.from,
          to: q.to,
          ...paging,
        });
        return listOf(
          (await comTamanhos(deps, rows)).map((r) => cteView(r, env, false)),
          paging,
          total,
          env,
          next_cursor,
        );
      },
    );

    app.post(
      '/cte',
      {
        schema: {
          operationId: 'criarRascunhoCte',
          tags: TAGS,
          summary: 'Creates a CT-e draft (`CteDraftInput`)',
          description:
            'A draft may be incomplete; POST /fiscal/cte/{cte_uuid}/previa lists what an issue still needs. 400 `validacao` names each field ' +
            '(shape, check digits of documents and keys, IBGE municipality pairs, vRec over vTPrest). An `Idempotency-Key` header makes a retry ' +
            'return the draft the first call created instead of a second one.',
          headers: Type.Object({
            'idempotency-key': Type.Optional(Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' })),
          }),
          body: Type.Ref(CteDraftInput),
          response: { 201: DataEnvelope(Type.Ref(Cte)), ...errors(400) },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const rascunho = await deps.handlers.cte.criarRascunho(
          commandContext(request, deps),
          request.body as CteDraftInput,
          request.headers['idempotency-key'],
        );
        // The reads after the answer see the draft as usual; the answer itself is what the command recorded.
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(201).send({ data: cteView(rascunho, env), environment: env });
      },
    );

    app.put(
      '/cte/:cte_uuid',
      {
        schema: {
          operationId: 'alterarRascunhoCte',
          tags: TAGS,
          summary: 'Replaces the editable data of a draft',
          description: 'Only a draft changes: a CT-e already sent is immutable (422 `cte_nao_editavel`). 400 `validacao` as on creation.',
          params: CteIdParam,
          body: Type.Ref(CteDraftInput),
          response: { 200: DataEnvelope(Type.Ref(Cte)), ...errors(400, 404, 422, 'cte_nao_editavel') },
        },
      },
      async (request) => {
        const p = principalOf(request);
        await deps.readYourWrites.waitFor(p.companyId);
        const row = await ownCte(deps, p.companyId, request.params.cte_uuid);
        const alterado = await deps.handlers.cte.alterarRascunho(commandContext(request, deps), row.cte_id, request.body as CteDraftInput);
        await deps.readYourWrites.waitFor(p.companyId);
        return { data: cteView(alterado, env), environment: env };
      },
    );

    app.get(
      '/cte/:cte_uuid',
      {
        schema: {
          operationId: 'obterCte',
          tags: TAGS,
          summary: 'One own CT-e',
          params: CteIdParam,
          response: { 200: DataEnvelope(Type.Ref(Cte)), ...errors(404) },
        },
      },
      async (request) => {
        const [row] = await comTamanhos(deps, [await ownCte(deps, principalOf(request).companyId, request.params.cte_uuid)]);
        return { data: cteView(row!, env), environment: env };
      },
    );

    app.get(
      '/cte/:cte_uuid/xml',
      {
        schema: {
          operationId: 'baixarXmlCte',
          tags: TAGS,
          summary: 'The authorized cteProc, byte for byte as archived',
          description:
            '404 before authorization (or for a CT-e delivered without its protocol); 503 `xml_indisponivel` when the archive cannot be read.',
          params: CteIdParam,
          produces: ['application/xml'],
          response: respostasXmlArquivado('The cteProc XML'),
        },
      },
      async (request, reply) => {
        const row = await ownCte(deps, principalOf(request).companyId, request.params.cte_uuid);
        if (!['autorizado', 'cancelado'].includes(row.situacao) || !row.xml_sha256)
          throw new ApiError('nao_encontrado', `no authorized XML for this CT-e (situacao ${row.situacao})`);
        return enviarXmlArquivado(deps, reply, row.xml_sha256, 'attachment', `${row.chave}-cteProc.xml`);
      },
    );
  };
