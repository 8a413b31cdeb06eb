import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccessKeyParam, DataEnvelope, InboundCte, InboundCteQuery, InboundCteSummary, ListEnvelope } from '@frete/contracts';
import { isValidAccessKey } from '@frete/domain';
import { cteSubcontratacaoList, cteSubcontratacaoOf } from '@frete/projections';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { checkDateRange, listOf, pageOf } from '../../paging';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { CteUploadBody, readCteUpload } from './xml-upload';
import { inboundView } from './cte-views';

const TAGS = ['Subcontratação'];

const notFound = () => new ApiError('nao_encontrado', "CT-e not found in this company's inbox");

/** The inbox of CT-e issued by other companies (spec section 4, "Inbox of third-party CT-e and subcontracting"). */
export const cteSubcontratacaoRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.post(
      '/cte-subcontratacao',
      {
        // JSON or multipart: readCteUpload validates both and names the field; the schema documents them.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'receberCteSubcontratacao',
          tags: TAGS,
          summary: 'Receives a CT-e issued by another company (cteProc or CTe, layouts 4.00 and 3.00, up to 2 MB)',
          description:
            'JSON `{ "xml": ... }` (raw XML or base64, told apart by the content) or multipart part `arquivo`. The bytes are archived as received. ' +
            '201 on the first receipt of the key; 200 on a resubmission, with `received_count` incremented and `content_updated` true when the XML ' +
            'differs (the new XML replaces the archived one; every version stays named in the event log). Receiving issues no fiscal document; a ' +
            'CT-e that admits no counter-CT-e (your own, linked to multimodal) is still received with `allows_counter_cte` false. ' +
            '400 `validacao`, `xml_hostil` (DOCTYPE/entities, absurd nesting), `xml_malformado`; 413 over 2 MB; 422 `documento_nao_e_cte`, ' +
            '`layout_nao_suportado`, `chave_invalida` (wrong check digit).',
          consumes: ['application/json', 'multipart/form-data'],
          body: CteUploadBody,
          response: {
            200: DataEnvelope(Type.Ref(InboundCte)),
            201: DataEnvelope(Type.Ref(InboundCte)),
            ...errors(400, 413, 415, 422, 'xml_hostil', 'xml_malformado', 'documento_nao_e_cte', 'layout_nao_suportado', 'chave_invalida'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const { bytes, cte } = await readCteUpload(request);
        const { novo, recebimento } = await deps.handlers.cteSubcontratacao.receber(commandContext(request, deps), p.company.cnpj, {
          bytes,
          cte,
        });
        // The reads after the answer see the receipt as usual; the answer itself is what the command recorded.
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(novo ? 201 : 200).send({ data: inboundView(recebimento, true), environment: env });
      },
    );

    app.get(
      '/cte-subcontratacao',
      {
        schema: {
          operationId: 'listarCteRecebidos',
          tags: TAGS,
          summary: 'Lists CT-e other companies issued (not own issues: those are GET /fiscal/cte)',
          description: '`from`/`to` refer to the first RECEIPT date. Parties come without addresses; read one CT-e for them.',
          querystring: InboundCteQuery,
          response: { 200: ListEnvelope(Type.Ref(InboundCteSummary)), ...errors(400) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const q = request.query;
        checkDateRange(q.from, q.to);
        const paging = pageOf(q);
        const { rows, total, next_cursor } = await cteSubcontratacaoList(deps.pool, p.companyId, {
          search: q.search,
          carrier_role: q.carrier_role,
          status: q.status,
          from: q.from,
          to: q.to,
          ...paging,
        });
        return listOf(
          rows.map((r) => inboundView(r, false)),
          paging,
          total,
          env,
          next_cursor,
        );
      },
    );

    app.get(
      '/cte-subcontratacao/:access_key',
      {
        schema: {
          operationId: 'obterCteRecebido',
          tags: TAGS,
          summary: "One received CT-e, with the parties' full addresses",
          params: AccessKeyParam,
          response: { 200: DataEnvelope(Type.Ref(InboundCte)), ...errors(404) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const key = request.params.access_key;
        const row = isValidAccessKey(key) ? await cteSubcontratacaoOf(deps.pool, p.companyId, key) : null;
        if (!row) throw notFound();
        return { data: inboundView(row, true), environment: env };
      },
    );

    app.get(
      '/cte-subcontratacao/:access_key/xml',
      {
        schema: {
          operationId: 'baixarXmlCteRecebido',
          tags: TAGS,
          summary: 'The archived XML, byte for byte as received (not reserialized)',
          description:
            '`application/xml`; the encoding is the one the XML declares. 503 `xml_indisponivel` when the archive cannot be read (retry).',
          params: AccessKeyParam,
          produces: ['application/xml'],
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', description: 'The XML document' }),
            ...errors(404, 503, 'xml_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const key = request.params.access_key;
        const row = isValidAccessKey(key) ? await cteSubcontratacaoOf(deps.pool, p.companyId, key) : null;
        if (!row) throw notFound();
        const doc = await deps.documents.get(row.xml_sha256);
        if (!doc) throw new ApiError('xml_indisponivel', 'the archived XML cannot be read now; retry later');
        return reply.type('application/xml').header('Content-Disposition', `inline; filename="${key}.xml"`).send(doc.content);
      },
    );
  };
