import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type ContraCteLoteInput, type Environment } from '@frete/contracts';
import { Rejection, identificacoesDoLote, isValidCnpj, loteDecider, loteStream, normalizeCnpj, resolverLote } from '@frete/domain';
import { autorizacaoAtiva, companyOf, registroDeFrota } from '@frete/projections';
import { derivedEventId } from '@frete/platform';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';

export interface LoteHandlerDeps extends Required<CommandDeps> {
  pool: Pool;
  environment: Environment;
}

type Contexto = ContextoEmpresa;

/** Counter-CT-e batches (spec section 4, batch rules 1–8); the rows are walked by `ProcessadorLote`. */
export const loteHandler = (deps: LoteHandlerDeps) => {
  const run = handles(deps, loteDecider, (c) => loteStream(c.batch_id));

  /**
   * The company the batch is created for: the caller itself, or a subcontractor that granted the caller emission.
   * An unknown CNPJ is refused like a company without a grant: both mean no active grant exists.
   */
  const subcontratadaDo = async (ctx: Contexto, callerCnpj: string, cnpjInformado: string): Promise<string> => {
    const cnpj = normalizeCnpj(cnpjInformado);
    if (!isValidCnpj(cnpj)) {
      throw new Rejection('validacao', 'subcontratada.cnpj: not a valid CNPJ', {
        fields: [{ field: 'subcontratada.cnpj', message: 'not a valid CNPJ' }],
      });
    }
    if (cnpj === callerCnpj) return ctx.companyId;
    // Granting and revoking record the contractor's watermark too: the check sees them.
    await deps.readYourWrites.waitFor(ctx.companyId);
    const sub = await companyOf(deps.pool, cnpj, cnpj);
    if (!sub || !(await autorizacaoAtiva(deps.pool, sub.company_id, ctx.companyId))) {
      throw new Rejection(
        'emissao_nao_autorizada',
        `CNPJ ${cnpj} has no active emission grant to your company (POST /fiscal/cte-subcontratacao/autorizacoes, by the subcontractor)`,
      );
    }
    return sub.company_id;
  };

  return {
    /** The batch's id. Its rows are planned against the subcontractor's registry before anything is created. */
    criar: async (ctx: Contexto, callerCnpj: string, pedido: ContraCteLoteInput, idempotencyKey?: string): Promise<string> => {
      const batchId = idempotencyKey ? derivedEventId(ctx.companyId, `lote:${idempotencyKey}`) : randomUUID();
      // A retry of a batch already created answers it again, even after a revocation: it creates nothing new.
      if (idempotencyKey && (await deps.store.readStream(loteStream(batchId))).length > 0) return batchId;

      const subId = await subcontratadaDo(ctx, callerCnpj, pedido.subcontratada.cnpj);
      if (subId !== ctx.companyId) await deps.readYourWrites.waitFor(subId);
      const { cpfs, placas } = identificacoesDoLote(pedido);
      const plano = resolverLote(pedido, await registroDeFrota(deps.pool, subId, cpfs, placas));

      const { position } = await run(ctx, {
        type: 'CriarLote',
        batch_id: batchId,
        company_id: subId,
        solicitante_company_id: subId === ctx.companyId ? null : ctx.companyId,
        ambiente: deps.environment,
        modo: plano.modo,
        parcelas: plano.parcelas,
        linhas: plano.linhas,
      });
      // The subcontractor reads the report of a batch it did not create: its next GET must see it as well.
      if (position && subId !== ctx.companyId) await deps.readYourWrites.recordWrite(subId, position);
      return batchId;
    },
  };
};
export type LoteHandler = ReturnType<typeof loteHandler>;
