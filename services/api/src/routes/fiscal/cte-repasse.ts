import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CteIdParam, DataEnvelope, SubcontratacaoRepasse, SubcontratacaoRepasseInput } from '@frete/contracts';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';

/** The contractor hands its authorized CT-e to a subcontractor's inbox (spec section 4, POST /fiscal/cte/{cte_uuid}/subcontratacao). */
export const cteRepasseRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    app.post(
      '/cte/:cte_uuid/subcontratacao',
      {
        schema: {
          operationId: 'enviarCteASubcontratada',
          tags: ['Subcontratação'],
          summary: 'Hands an authorized own CT-e to a subcontractor: the archived XML lands, byte for byte, in its inbox',
          description:
            'Idempotent by key: 201 on the first delivery to that subcontractor, 200 on later ones with `received_count` incremented. No financial ' +
            'action. 404 for a CT-e that is not yours. 422 `cte_nao_autorizado`, `subcontratada_nao_encontrada`, `subcontratada_nao_transportadora`, ' +
            '`subcontratada_igual_contratante`; 400 `validacao` for a malformed CNPJ; 503 `xml_indisponivel` when the archived XML cannot be read (retry is safe).',
          params: CteIdParam,
          body: Type.Ref(SubcontratacaoRepasseInput),
          response: {
            200: DataEnvelope(Type.Ref(SubcontratacaoRepasse)),
            201: DataEnvelope(Type.Ref(SubcontratacaoRepasse)),
            ...errors(
              400,
              404,
              422,
              503,
              'cte_nao_autorizado',
              'subcontratada_nao_encontrada',
              'subcontratada_nao_transportadora',
              'subcontratada_igual_contratante',
              'xml_indisponivel',
            ),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const body = request.body as SubcontratacaoRepasseInput;
        await deps.readYourWrites.waitFor(p.companyId);
        const own = await ownCte(deps, p.companyId, request.params.cte_uuid);
        const {
          chave,
          novo,
          subcontratada: sub,
          recebimento: receipt,
        } = await deps.handlers.caixaCte.repassar(
          commandContext(request, deps),
          { cnpj: p.company.cnpj, nome: p.company.razao_social },
          own,
          { cnpj: body.subcontratada.cnpj, observacao: body.observacao ?? null },
        );
        // The subcontractor's reads see the receipt as usual; the answer itself is what the hand-off recorded.
        await deps.readYourWrites.waitFor(sub.company_id);
        return reply.status(novo ? 201 : 200).send({
          data: {
            cte: { id: own.cte_id, access_key: chave },
            subcontratada: { cnpj: sub.cnpj, nome: sub.razao_social },
            recebimento: {
              access_key: receipt.chave,
              status: receipt.status,
              carrier_role: receipt.carrier_role,
              allows_counter_cte: receipt.allows_counter_cte,
              received_count: receipt.received_count,
              content_updated: receipt.content_updated,
              first_received_at: receipt.first_received_at.toISOString(),
              last_received_at: receipt.last_received_at.toISOString(),
            },
          },
          environment: env,
        });
      },
    );
  };
