import { randomUUID } from 'node:crypto';
import { type CteDraftInput, type Environment } from '@frete/contracts';
import { cteDecider, cteStream } from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { type CommandContext, type CommandDeps } from '../commands/execute';
import { handles } from '../commands/handles';

export interface CteHandlerDeps extends CommandDeps {
  environment: Environment;
}

/** Own CT-e drafts (spec section 4, "CT-e"). */
export const cteHandler = (deps: CteHandlerDeps) => {
  const run = handles(deps, cteDecider, (c) => cteStream('cte_id' in c ? c.cte_id : c.data.cte_id));
  return {
    /**
     * The id of the draft. With an idempotency key the id is derived from it, so a retry lands on the stream the
     * first call created and the decider appends nothing.
     */
    criarRascunho: async (ctx: CommandContext & { companyId: string }, dados: CteDraftInput, idempotencyKey?: string): Promise<string> => {
      const cteId = idempotencyKey ? derivedEventId(ctx.companyId, `rascunho:${idempotencyKey}`) : randomUUID();
      await run(ctx, { type: 'CriarRascunho', cte_id: cteId, company_id: ctx.companyId, environment: deps.environment, dados });
      return cteId;
    },
    alterarRascunho: async (ctx: CommandContext & { companyId: string }, cteId: string, dados: CteDraftInput): Promise<void> => {
      await run(ctx, { type: 'AlterarRascunho', cte_id: cteId, company_id: ctx.companyId, dados });
    },
  };
};
export type CteHandler = ReturnType<typeof cteHandler>;
