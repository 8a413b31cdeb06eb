import { type DomainEvent } from '@frete/contracts';
import { type Registro } from '@frete/domain';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';

type Contexto = ContextoEmpresa;

/** What a registry's routes may do to it: the input goes in as the API received it, the decider judges it. */
export interface RegistroHandler<I> {
  /** The new entry's integer id. */
  cadastrar(ctx: Contexto, input: I): Promise<number>;
  /** Replaces the whole entry; the same data again appends nothing. */
  alterar(ctx: Contexto, id: number, input: I): Promise<void>;
  remover(ctx: Contexto, id: number): Promise<void>;
}

/** One company registry (drivers, vehicles, tax rules): the domain's `registro` names its stream and commands. */
export const registroHandler = <C extends { type: string; company_id: string }, E extends DomainEvent, I, D>(
  deps: CommandDeps,
  registro: Registro<C, E, I, D>,
): RegistroHandler<I> => {
  const run = handles(deps, registro.decider, (c) => registro.stream(c.company_id));
  return {
    cadastrar: async (ctx, input) => registro.idCadastrado((await run(ctx, registro.cadastrar(ctx.companyId, input))).events),
    alterar: async (ctx, id, input) => {
      await run(ctx, registro.alterar(ctx.companyId, id, input));
    },
    remover: async (ctx, id) => {
      await run(ctx, registro.remover(ctx.companyId, id));
    },
  };
};
