import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CteIdParam } from '@frete/contracts';
import { type CteLido } from '@frete/domain';
import { readCteDocument, renderDacte } from '@frete/documents';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';
import { xmlTextOf } from './xml-upload';

const TAGS = ['CT-e'];

const unavailable = () => new ApiError('xml_indisponivel', 'the archived XML cannot be read now; retry later');

/** The DACTE of an own CT-e, drawn from its archived XML (spec section 4, "CT-e"). */
export const dacteRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/cte/:cte_uuid/dacte',
      {
        schema: {
          operationId: 'baixarDacte',
          tags: TAGS,
          summary: 'The DACTE (auxiliary document of the CT-e) as PDF',
          description:
            'Drawn from the archived XML, laid out like the model of the CT-e manual. In homologação it carries "SEM VALOR FISCAL"; ' +
            'a cancelled CT-e carries "CANCELADO". 422 `cte_nao_autorizado` before authorization (or for a CT-e delivered without ' +
            'its protocol, or denied); 503 `xml_indisponivel` when the archive cannot be read.',
          params: CteIdParam,
          produces: ['application/pdf'],
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The DACTE, PDF (A4 portrait)' }),
            ...errors(404, 422, 503, 'cte_nao_autorizado', 'xml_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const row = await ownCte(deps, principalOf(request).companyId, request.params.cte_uuid);
        if (row.situacao !== 'autorizado' && row.situacao !== 'cancelado') {
          throw new ApiError('cte_nao_autorizado', `the DACTE exists only for an authorized CT-e (situacao ${row.situacao})`);
        }
        if (!row.xml_sha256) throw unavailable();
        const doc = await deps.documents.get(row.xml_sha256);
        if (!doc) throw unavailable();
        let cte: CteLido;
        try {
          cte = await readCteDocument(xmlTextOf(doc.content));
        } catch (err) {
          request.log.error({ err, cte_id: row.cte_id }, 'archived CT-e XML no longer readable');
          throw unavailable();
        }
        const pdf = await renderDacte(cte, { environment: deps.config.environment, cancelado: row.situacao === 'cancelado' });
        return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${cte.chave}-dacte.pdf"`).send(pdf);
      },
    );
  };
