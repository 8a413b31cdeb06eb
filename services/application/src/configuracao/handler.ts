import { type FiscalConfigurationUpdate } from '@frete/contracts';
import { configuracaoDecider, configuracaoStream } from '@frete/domain';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';

/** The carrier's fiscal configuration (one per company). */
export const configuracaoHandler = (deps: CommandDeps) => {
  const run = handles(deps, configuracaoDecider, (c) => configuracaoStream(c.company_id));
  return {
    atualizar: async (ctx: ContextoEmpresa, changes: FiscalConfigurationUpdate): Promise<void> => {
      await run(ctx, { type: 'AtualizarConfiguracao', company_id: ctx.companyId, changes });
    },
  };
};
export type ConfiguracaoHandler = ReturnType<typeof configuracaoHandler>;
