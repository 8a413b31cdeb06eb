import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MdfeIdParam } from '@frete/contracts';
import { damdfeDoMdfe } from '@frete/application';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownMdfe } from './mdfe';

const TAGS = ['MDF-e'];
const unavailable = () => new ApiError('xml_indisponivel', 'the archived XML cannot be read now; retry later');

/** The DAMDFE of an authorized MDF-e, from its archived mdfeProc and the manifest's data. */
export const damdfeRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/mdfe/:mdfe_uuid/damdfe',
      {
        schema: {
          operationId: 'baixarDamdfe',
          tags: TAGS,
          summary: 'The DAMDFE (auxiliary document of the MDF-e) as PDF',
          description:
            'Code-128 of the access key, the QR code of `infMDFeSupl/qrCodMDFe`, the authorization protocol, the vehicles, drivers (with the ' +
            'ones added by event) and CT-e keys. Homologação carries "SEM VALOR FISCAL"; a cancelled or closed MDF-e says so. 422 ' +
            '`mdfe_nao_autorizado` before authorization; 503 `xml_indisponivel` when the archive cannot be read.',
          params: MdfeIdParam,
          produces: ['application/pdf'],
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The DAMDFE, PDF (A4 portrait)' }),
            ...errors(404, 422, 503, 'mdfe_nao_autorizado', 'xml_indisponivel'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const row = await ownMdfe(deps, p.companyId, request.params.mdfe_uuid);
        if (!['autorizado', 'encerrado', 'cancelado'].includes(row.situacao) || !row.chave) {
          throw new ApiError('mdfe_nao_autorizado', `the DAMDFE exists only for an authorized MDF-e (situacao ${row.situacao})`);
        }
        if (!row.xml_sha256) throw unavailable();
        const doc = await deps.documents.get(row.xml_sha256);
        if (!doc) throw unavailable();
        const pdf = await damdfeDoMdfe(
          deps.pool,
          p.companyId,
          { ...row, chave: row.chave },
          doc.content.toString('utf8'),
          deps.config.environment,
        );
        return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${row.chave}-damdfe.pdf"`).send(pdf);
      },
    );
  };
