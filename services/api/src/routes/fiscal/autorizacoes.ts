import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AutorizacaoEmissao, AutorizacaoEmissao as AutorizacaoEmissaoSchema, AutorizacaoInput, AutorizacoesLista, DataEnvelope } from '@frete/contracts';
import { autorizacaoDecider, autorizacaoStream, isValidCnpj, normalizeCnpj } from '@frete/domain';
import { type AutorizacaoRow, autorizacaoPorId, autorizacoesConcedidas, autorizacoesRecebidas, companyOf } from '@frete/projections';
import { execute } from '@frete/application';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';

const TAG = 'fiscal: cte-subcontratacao (autorizacoes)';

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
 * then trigger batches with `subcontratada.cnpj` equal to the caller's CNPJ. Each write also records the other
 * party's read-your-writes watermark, so that the contractor's next read (its GET, the batch check) sees it too.
 */
export const autorizacoesRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  const env = deps.config.environment;

  /** The grant as the read model has it, once the read model has the caller's last write. */
  const readBack = async (companyId: string, autorizacaoId: string): Promise<AutorizacaoEmissao> => {
    await deps.readYourWrites.waitFor(companyId);
    const row = await autorizacaoPorId(deps.pool, autorizacaoId);
    if (!row) throw new Error(`read model has no grant ${autorizacaoId} after the wait`);
    return toAutorizacao(row);
  };

  app.get('/cte-subcontratacao/autorizacoes', {
    schema: {
      tags: [TAG],
      summary: 'Active emission grants in both directions',
      description: '`concedidas`: grants the caller gave as subcontractor; `recebidas`: grants the caller received as contractor. Revoked grants are not listed.',
      response: { 200: DataEnvelope(AutorizacoesLista), ...errors() },
    },
  }, async (request) => {
    const p = principalOf(request);
    const [concedidas, recebidas] = await Promise.all([
      autorizacoesConcedidas(deps.pool, p.companyId),
      autorizacoesRecebidas(deps.pool, p.companyId),
    ]);
    return { data: { concedidas: concedidas.map(toAutorizacao), recebidas: recebidas.map(toAutorizacao) }, environment: env };
  });

  app.post('/cte-subcontratacao/autorizacoes', {
    schema: {
      tags: [TAG],
      summary: 'Authorizes a contractor to trigger counter-CT-e batches on the caller\'s account',
      description: 'The caller is the subcontractor. 201 with the new grant; 200 with the same grant when it is already active. ' +
        '404 `contratante_nao_encontrada`: no carrier customer with that CNPJ. 422 `contratante_invalida`: the caller\'s own CNPJ, ' +
        'or a CNPJ whose check digits are wrong (`error.details.fields`).',
      body: AutorizacaoInput,
      response: { 200: DataEnvelope(AutorizacaoEmissaoSchema), 201: DataEnvelope(AutorizacaoEmissaoSchema), ...errors(400, 404, 422) },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const cnpj = normalizeCnpj(request.body.contratante.cnpj);
    const stream = autorizacaoStream(p.companyId, cnpj);
    // Only a well-formed CNPJ is looked up (it can never match a company id); the decider judges the rest.
    const found = isValidCnpj(cnpj) ? await companyOf(deps.pool, cnpj, cnpj) : null;
    const { state, events, position } = await execute(deps, stream, autorizacaoDecider, {
      type: 'ConcederAutorizacao',
      autorizacao_id: randomUUID(),
      subcontratada: { company_id: p.companyId, cnpj: p.company.cnpj, nome: p.company.razao_social },
      contratante_cnpj: cnpj,
      contratante: found && { company_id: found.company_id, cnpj: found.cnpj, nome: found.razao_social, carrier: found.carrier },
    }, commandContext(request, deps));
    if (position && found) await deps.readYourWrites.recordWrite(found.company_id, position);
    if (!position) {
      // Already active: the grant may have been written a moment ago by a concurrent request whose watermark is not
      // recorded yet. The caller's read must still wait for it.
      const history = await deps.store.readStream(stream);
      const last = history[history.length - 1];
      if (last) await deps.readYourWrites.recordWrite(p.companyId, last.position);
    }
    const data = await readBack(p.companyId, state.ativa!.autorizacao_id);
    return reply.status(events.length > 0 ? 201 : 200).send({ data, environment: env });
  });

  app.delete('/cte-subcontratacao/autorizacoes/:cnpj', {
    schema: {
      tags: [TAG],
      summary: 'Revokes the caller\'s grant to a contractor',
      description: 'Path `cnpj` with or without punctuation (encode `/` as `%2F`). The contractor\'s next batch for the caller gets ' +
        '403 `emissao_nao_autorizada`; batches already created are unchanged. The revoked grant is kept for audit. ' +
        '404 `autorizacao_nao_encontrada` when the caller has no active grant to that CNPJ.',
      params: Type.Object({ cnpj: Type.String({ description: 'CNPJ of the contractor' }) }),
      response: { 200: DataEnvelope(AutorizacaoEmissaoSchema), ...errors(404) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const cnpj = normalizeCnpj(request.params.cnpj);
    if (!isValidCnpj(cnpj)) throw new ApiError('autorizacao_nao_encontrada', `no active grant to CNPJ ${cnpj}`);
    const { events, position } = await execute(deps, autorizacaoStream(p.companyId, cnpj), autorizacaoDecider, {
      type: 'RevogarAutorizacao',
      subcontratada_id: p.companyId,
      contratante_cnpj: cnpj,
    }, commandContext(request, deps));
    const revoked = events[0];
    if (!revoked || revoked.type !== 'autorizacao.revogada') throw new Error('revoke appended no autorizacao.revogada');
    if (position) await deps.readYourWrites.recordWrite(revoked.data.contratante_id, position);
    return { data: await readBack(p.companyId, revoked.data.autorizacao_id), environment: env };
  });
};
