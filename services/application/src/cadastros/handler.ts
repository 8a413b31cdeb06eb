import { type DomainEvent } from '@frete/contracts';
import { type Registro } from '@frete/domain';
import { type CommandDeps, type ContextoEmpresa, toDomainEvent } from '../commands/execute';
import { handles } from '../commands/handles';

type Contexto = ContextoEmpresa;

/** An active entry as the log has it: its data, and the times of the events that created and last changed it. */
export interface EntradaRegistrada<D> {
  company_id: string;
  id: number;
  dados: D;
  cadastrado_em: Date;
  atualizado_em: Date;
}

/** What a registry's routes may do to it: the input goes in as the API received it, the decider judges it. */
export interface RegistroHandler<I, R> {
  /** The new entry, as it was recorded, in the read model's row shape. */
  cadastrar(ctx: Contexto, input: I): Promise<R>;
  /** Replaces the whole entry (the same data again appends nothing); answers the entry as recorded. */
  alterar(ctx: Contexto, id: number, input: I): Promise<R>;
  remover(ctx: Contexto, id: number): Promise<void>;
}

/**
 * One company registry (drivers, vehicles, tax rules): the domain's `registro` names its stream and commands. A write
 * answers the entry from what the log recorded (`linha` shapes it as the read model's row), so that the answer never
 * waits for, nor fails on, a projection.
 */
export const registroHandler = <C extends { type: string; company_id: string }, E extends DomainEvent, I, D, R>(
  deps: CommandDeps,
  registro: Registro<C, E, I, D>,
  linha: (entrada: EntradaRegistrada<D>) => R,
): RegistroHandler<I, R> => {
  const run = handles(deps, registro.decider, (c) => registro.stream(c.company_id));

  /** The entry's times are its events' (as the projector records them): read from the stream the command wrote. */
  const registrada = async (companyId: string, id: number, dados: D | undefined): Promise<R> => {
    if (dados === undefined) throw new Error(`registry ${registro.stream(companyId)} lost entry ${id}`);
    let cadastrado_em: Date | null = null;
    let atualizado_em: Date | null = null;
    for (const recorded of await deps.store.readStream(registro.stream(companyId))) {
      const efeito = registro.efeito(toDomainEvent<E>(recorded));
      if (efeito?.id !== id) continue;
      if (efeito.fato === 'cadastrado') cadastrado_em = atualizado_em = recorded.recordedAt;
      else if (efeito.fato === 'alterado') atualizado_em = recorded.recordedAt;
    }
    if (!cadastrado_em || !atualizado_em) throw new Error(`registry ${registro.stream(companyId)} has no creation of entry ${id}`);
    return linha({ company_id: companyId, id, dados, cadastrado_em, atualizado_em });
  };

  return {
    cadastrar: async (ctx, input) => {
      const { state, events } = await run(ctx, registro.cadastrar(ctx.companyId, input));
      const id = registro.idCadastrado(events);
      return registrada(ctx.companyId, id, state.ativos[id]);
    },
    alterar: async (ctx, id, input) => {
      const { state } = await run(ctx, registro.alterar(ctx.companyId, id, input));
      return registrada(ctx.companyId, id, state.ativos[id]);
    },
    remover: async (ctx, id) => {
      await run(ctx, registro.remover(ctx.companyId, id));
    },
  };
};
