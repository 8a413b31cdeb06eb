import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CteIdParam, DataEnvelope, SubcontratacaoRepasse, SubcontratacaoRepasseInput } from '@frete/contracts';
import { cteDecider, cteStream, cteSubcontratacaoDecider, cteSubcontratacaoStream, isValidCnpj, normalizeCnpj } from '@frete/domain';
import { companyOf, cteSubcontratacaoOf } from '@frete/projections';
import { execute } from '@frete/application';
import { readCteDocument } from '@frete/documents';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { ownCte } from './cte';
import { xmlTextOf } from './xml-upload';

/** The contractor hands its authorized CT-e to a subcontractor's inbox (spec section 4, POST /fiscal/cte/{cte_uuid}/subcontratacao). */
export const cteRepasseRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  const env = deps.config.environment;

  app.post('/cte/:cte_uuid/subcontratacao', {
    schema: {
      tags: ['fiscal: cte-subcontratacao'],
      summary: 'Hands an authorized own CT-e to a subcontractor: the archived XML lands, byte for byte, in its inbox',
      description:
        'Idempotent by key: 201 on the first delivery to that subcontractor, 200 on later ones with `received_count` incremented. No financial ' +
        'action. 404 for a CT-e that is not yours. 422 `cte_nao_autorizado`, `subcontratada_nao_encontrada`, `subcontratada_nao_transportadora`, ' +
        '`subcontratada_igual_contratante`; 400 `validacao` for a malformed CNPJ; 503 `xml_indisponivel` when the archived XML cannot be read (retry is safe).',
      params: CteIdParam,
      body: Type.Ref(SubcontratacaoRepasseInput),
      response: { 200: DataEnvelope(Type.Ref(SubcontratacaoRepasse)), 201: DataEnvelope(Type.Ref(SubcontratacaoRepasse)), ...errors(400, 404, 422, 503) },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const body = request.body as SubcontratacaoRepasseInput;
    await deps.readYourWrites.waitFor(p.companyId);
    const own = await ownCte(deps, p.companyId, request.params.cte_uuid);
    if (own.situacao !== 'autorizado' || !own.xml_sha256 || !own.chave) {
      throw new ApiError('cte_nao_autorizado', `only an authorized CT-e can be handed off; this one is ${own.situacao}`);
    }
    const cnpj = normalizeCnpj(body.subcontratada.cnpj);
    if (!isValidCnpj(cnpj)) {
      throw new ApiError('validacao', 'subcontratada.cnpj: not a valid CNPJ', { fields: [{ field: 'subcontratada.cnpj', message: 'not a valid CNPJ (check digits)' }] });
    }
    if (cnpj === normalizeCnpj(p.company.cnpj)) throw new ApiError('subcontratada_igual_contratante', 'the subcontractor cannot be the contractor itself');
    const sub = await companyOf(deps.pool, cnpj, cnpj);
    if (!sub) throw new ApiError('subcontratada_nao_encontrada', `no company with CNPJ ${cnpj} uses the service`);
    if (!sub.carrier) throw new ApiError('subcontratada_nao_transportadora', `the company with CNPJ ${cnpj} is not a carrier`);

    const doc = await deps.documents.get(own.xml_sha256);
    if (!doc) throw new ApiError('xml_indisponivel', 'the archived XML of this CT-e cannot be read now; retry later');
    const cte = await readCteDocument(xmlTextOf(doc.content));
    const ctx = commandContext(request, deps);
    const observacao = body.observacao ?? null;
    // The receipt belongs to the subcontractor: its watermark moves, so its next read sees the CT-e.
    const { events } = await execute(deps, cteSubcontratacaoStream(sub.company_id, own.chave), cteSubcontratacaoDecider, {
      type: 'ReceberCteSubcontratacao',
      company_id: sub.company_id,
      company_cnpj: sub.cnpj,
      environment: env,
      sha256: own.xml_sha256,
      tamanho_bytes: doc.content.length,
      canal: 'repasse',
      repassado_por: { company_id: p.companyId, cnpj: p.company.cnpj, nome: p.company.razao_social, cte_id: own.cte_id, observacao },
      cte,
    }, { ...ctx, companyId: sub.company_id });
    await execute(deps, cteStream(own.cte_id), cteDecider, {
      type: 'RepassarCte',
      cte_id: own.cte_id,
      company_id: p.companyId,
      subcontratada_id: sub.company_id,
      subcontratada_cnpj: sub.cnpj,
      observacao,
    }, ctx);
    await deps.readYourWrites.waitFor(sub.company_id);
    const receipt = await cteSubcontratacaoOf(deps.pool, sub.company_id, own.chave);
    if (!receipt) throw new Error(`inbox row of ${own.chave} missing after the hand-off`);
    return reply.status(events[0]?.type === 'cte_subcontratacao.recebido' ? 201 : 200).send({
      data: {
        cte: { id: own.cte_id, access_key: own.chave },
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
  });
};
