import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type ContraCteLoteInput, type Environment, type EventData } from '@frete/contracts';
import { Rejection, identificacoesDoLote, isValidCnpj, loteDecider, loteStream, normalizeCnpj, resolverLote } from '@frete/domain';
import { autorizacaoAtiva, companyOf, type CompanyRow, registroDeFrota } from '@frete/projections';
import { derivedEventId } from '@frete/platform';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';
import { aceitaDoLote, solicitacaoLoteHandler } from '../solicitacao-lote/handler';

export interface LoteHandlerDeps extends Required<CommandDeps> {
  pool: Pool;
  environment: Environment;
}

type Contexto = ContextoEmpresa;

/** Counter-CT-e batches (spec section 4, batch rules 1–8); the rows are walked by `ProcessadorLote`. */
export const loteHandler = (deps: LoteHandlerDeps) => {
  const run = handles(deps, loteDecider, (c) => loteStream(c.batch_id));
  const solicitacoes = solicitacaoLoteHandler(deps);

  /**
   * The subcontractor that granted the caller emission, or null when the batch is the caller's own. An unknown CNPJ
   * is refused like a company without a grant: both mean no active grant exists.
   */
  const subcontratadaDo = async (ctx: Contexto, callerCnpj: string, cnpjInformado: string): Promise<CompanyRow | null> => {
    const cnpj = normalizeCnpj(cnpjInformado);
    if (!isValidCnpj(cnpj)) {
      throw new Rejection('validacao', 'subcontratada.cnpj: not a valid CNPJ', {
        fields: [{ field: 'subcontratada.cnpj', message: 'not a valid CNPJ' }],
      });
    }
    if (cnpj === callerCnpj) return null;
    // Granting and revoking record the contractor's watermark too: the check sees them.
    await deps.readYourWrites.waitFor(ctx.companyId);
    const sub = await companyOf(deps.pool, cnpj, cnpj);
    if (!sub || !(await autorizacaoAtiva(deps.pool, sub.company_id, ctx.companyId))) {
      throw new Rejection(
        'emissao_nao_autorizada',
        `CNPJ ${cnpj} has no active emission grant to your company (POST /fiscal/cte-subcontratacao/autorizacoes, by the subcontractor)`,
      );
    }
    return sub;
  };

  /** The caller's record of a batch it requested on another company's account, in the caller's own log. */
  const registrarSolicitacao = (ctx: Contexto, criado: EventData<'lote.criado'>, sub: Pick<CompanyRow, 'cnpj' | 'razao_social'>) =>
    solicitacoes.registrar(ctx, aceitaDoLote(criado, { cnpj: sub.cnpj, nome: sub.razao_social }));

  return {
    /** The batch's id. Its rows are planned against the subcontractor's registry before anything is created. */
    criar: async (ctx: Contexto, callerCnpj: string, pedido: ContraCteLoteInput, idempotencyKey?: string): Promise<string> => {
      const batchId = idempotencyKey ? derivedEventId(ctx.companyId, `lote:${idempotencyKey}`) : randomUUID();
      // A retry of a batch already created answers it again, even after a revocation: it creates nothing new. Its first
      // answer may have failed between the batch and the request's record, which is recorded now.
      const criado = idempotencyKey ? (await deps.store.readStream(loteStream(batchId)))[0] : undefined;
      if (criado) {
        const d = criado.data as EventData<'lote.criado'>;
        const sub = d.solicitante_company_id === ctx.companyId ? await companyOf(deps.pool, d.company_id, '') : null;
        if (sub) await registrarSolicitacao(ctx, d, sub);
        return batchId;
      }

      const sub = await subcontratadaDo(ctx, callerCnpj, pedido.subcontratada.cnpj);
      const subId = sub?.company_id ?? ctx.companyId;
      if (sub) await deps.readYourWrites.waitFor(subId);
      const { cpfs, placas } = identificacoesDoLote(pedido);
      const plano = resolverLote(pedido, await registroDeFrota(deps.pool, subId, cpfs, placas));

      // The batch is the subcontractor's whoever asked: its events are in the subcontractor's log and hash chain (and
      // its next read waits for them). The caller is named as the actor and the requester.
      const { events } = await run(
        { ...ctx, companyId: subId },
        {
          type: 'CriarLote',
          batch_id: batchId,
          company_id: subId,
          solicitante_company_id: sub ? ctx.companyId : null,
          ambiente: deps.environment,
          modo: plano.modo,
          parcelas: plano.parcelas,
          linhas: plano.linhas,
        },
      );
      // The caller's own log holds that it asked and what it got, by public names; it also moves the caller's
      // watermark past the batch, so its next GET of the report sees it.
      const novo = events[0];
      if (sub && novo?.type === 'lote.criado') await registrarSolicitacao(ctx, novo.data, sub);
      return batchId;
    },
  };
};
export type LoteHandler = ReturnType<typeof loteHandler>;
