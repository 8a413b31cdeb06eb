import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type AutorizacaoEmissao,
  AutorizacaoEmissao as AutorizacaoEmissaoSchema,
  AutorizacaoInput,
  AutorizacoesLista,
  DataEnvelope,
} from '@frete/contracts';
import { type AutorizacaoRow, autorizacoesConcedidas, autorizacoesRecebidas } from '@frete/projections';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

const TAG = 'Subcontratação';

export const toAutorizacao = (row: AutorizacaoRow): AutorizacaoEmissao => ({
  id: row.autorizacao_id,
  contratante: { cnpj: row.contratante_cnpj, nome: row.contratante_nome },
  subcontratada: { cnpj: row.subcontratada_cnpj, nome: row.subcontratada_nome },
  status: row.status,
  concedida_em: row.concedida_em.toISOString(),
  revogada_em: row.revogada_em?.toISOString() ?? null,
});

/**
 * Emission grants between carriers. The caller of POST and DELETE is the subcontractor; the contractor it names may
 * then trigger batches with `subcontratada.cnpj` equal to the caller's CNPJ.
 */
export const autorizacoesRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const env = deps.config.environment;

    /**
     * After a write: the grant as the write recorded it; the bounded wait lets the reads that follow see the write as
     * usual, and its timing out changes nothing in the answer.
     */
    const registrada = async (companyId: string, row: AutorizacaoRow): Promise<AutorizacaoEmissao> => {
      await deps.readYourWrites.waitFor(companyId);
      return toAutorizacao(row);
    };

    app.get(
      '/cte-subcontratacao/autorizacoes',
      {
        schema: {
          operationId: 'listarAutorizacoesEmissao',
          tags: [TAG],
          summary: 'Active emission grants in both directions',
          description:
            '`concedidas`: grants the caller gave as subcontractor; `recebidas`: grants the caller received as contractor. Revoked grants are not listed.',
          response: { 200: DataEnvelope(AutorizacoesLista), ...errors() },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const [concedidas, recebidas] = await Promise.all([
          autorizacoesConcedidas(deps.pool, p.companyId),
          autorizacoesRecebidas(deps.pool, p.companyId),
        ]);
        return { data: { concedidas: concedidas.map(toAutorizacao), recebidas: recebidas.map(toAutorizacao) }, environment: env };
      },
    );

    app.post(
      '/cte-subcontratacao/autorizacoes',
      {
        schema: {
          operationId: 'autorizarContratante',
          tags: [TAG],
          summary: "Authorizes a contractor to trigger counter-CT-e batches on the caller's account",
          description:
            'The caller is the subcontractor. 201 with the new grant; 200 with the same grant when it is already active. ' +
            "404 `contratante_nao_encontrada`: no carrier customer with that CNPJ. 422 `contratante_invalida`: the caller's own CNPJ, " +
            'or a CNPJ whose check digits are wrong (`error.details.fields`).',
          body: AutorizacaoInput,
          response: {
            200: DataEnvelope(AutorizacaoEmissaoSchema),
            201: DataEnvelope(AutorizacaoEmissaoSchema),
            ...errors(400, 404, 422, 'contratante_nao_encontrada', 'contratante_invalida'),
          },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const subcontratada = { company_id: p.companyId, cnpj: p.company.cnpj, nome: p.company.razao_social };
        const { autorizacao, nova } = await deps.handlers.autorizacao.conceder(
          commandContext(request, deps),
          subcontratada,
          request.body.contratante.cnpj,
        );
        const data = await registrada(p.companyId, autorizacao);
        return reply.status(nova ? 201 : 200).send({ data, environment: env });
      },
    );

    app.delete(
      '/cte-subcontratacao/autorizacoes/:cnpj',
      {
        schema: {
          operationId: 'revogarAutorizacaoContratante',
          tags: [TAG],
          summary: "Revokes the caller's grant to a contractor",
          description:
            "Path `cnpj` with or without punctuation (encode `/` as `%2F`). The contractor's next batch for the caller gets " +
            '403 `emissao_nao_autorizada`; batches already created are unchanged. The revoked grant is kept for audit. ' +
            '404 `autorizacao_nao_encontrada` when the caller has no active grant to that CNPJ.',
          params: Type.Object({ cnpj: Type.String({ description: 'CNPJ of the contractor' }) }),
          response: { 200: DataEnvelope(AutorizacaoEmissaoSchema), ...errors(404, 'emissao_nao_autorizada', 'autorizacao_nao_encontrada') },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const revogada = await deps.handlers.autorizacao.revogar(commandContext(request, deps), request.params.cnpj);
        return { data: await registrada(p.companyId, revogada), environment: env };
      },
    );
  };
