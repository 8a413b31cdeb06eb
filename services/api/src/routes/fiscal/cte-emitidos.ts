import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CteEmitidoReceipt, DataEnvelope } from '@frete/contracts';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { CteUploadBody, readCteUpload } from './xml-upload';
import { cteView } from './cte-views';

/** Own CT-e issued elsewhere and delivered by the carrier (spec section 4, "Issued CT-e delivered by the carrier"). */
export const cteEmitidosRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.post(
      '/cte-emitidos',
      {
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'registrarCteEmitido',
          tags: ['CT-e'],
          summary: 'Delivers a CT-e the carrier issued elsewhere (cteProc or CTe, up to 2 MB)',
          description:
            "Same input forms as the inbox. The `emit` CNPJ must be the authenticated carrier's: otherwise 422 `cte_de_outro_emitente` " +
            "(a contractor's CT-e goes to POST /fiscal/cte-subcontratacao). Idempotent by access key: 201 the first time, then 200 with " +
            '`first_reception` false and nothing reprocessed. The CT-e becomes an own CT-e (GET /fiscal/cte/{cte_uuid}) and opens a service ' +
            'record, a delivery to confirm and a receivable from the taker. 422 also `ambiente_divergente` (tpAmb of another environment), ' +
            '`cte_nao_autorizado` (a protocol that does not authorize), `documento_nao_e_cte`, `layout_nao_suportado`, `chave_invalida`.',
          consumes: ['application/json', 'multipart/form-data'],
          body: CteUploadBody,
          response: {
            200: DataEnvelope(Type.Ref(CteEmitidoReceipt)),
            201: DataEnvelope(Type.Ref(CteEmitidoReceipt)),
            ...errors(
              400,
              413,
              415,
              422,
              'cte_de_outro_emitente',
              'ambiente_divergente',
              'cte_nao_autorizado',
              'documento_nao_e_cte',
              'layout_nao_suportado',
              'chave_invalida',
            ),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const { bytes, cte } = await readCteUpload(request);
        const sha256 = await deps.documents.put(bytes, 'application/xml');
        const { cte: row, primeiro: first } = await deps.handlers.cte.receberEmitido(commandContext(request, deps), {
          company_cnpj: p.company.cnpj,
          sha256,
          tamanho_bytes: bytes.length,
          cte,
        });
        // The reads after the answer see the CT-e as usual; the answer itself is what the command recorded.
        await deps.readYourWrites.waitFor(p.companyId);
        return reply.status(first ? 201 : 200).send({ data: { first_reception: first, ...cteView(row, env) }, environment: env });
      },
    );
  };
