import { randomUUID } from 'node:crypto';
import { type ContingenciaAtivada, type ContingenciaDesativada, type Position } from '@frete/contracts';
import { contingenciaDecider, contingenciaStream } from '@frete/domain';
import { type ContingenciaRow, contingenciasAtivas, type Sql } from '@frete/projections';
import { type CommandContext, type CommandDeps } from '../commands/execute';
import { handles } from '../commands/handles';

export interface ContingenciaHandlerDeps extends CommandDeps {
  pool: Sql;
  /** The operator's commands come with no request to carry the time: the platform's clock gives `dhCont`. */
  clock: () => Date;
}

/** What a switch recorded, and where in the log (the operator tool brings the read models up to it before answering). */
export interface Chaveado<T> {
  contingencia: T;
  position: Position | null;
}

/**
 * The operator's switch of a UF's CT-e to its contingency authorizer (SVC-RS, `tpEmis` 7 / SVC-SP, 8) and back,
 * for the whole deployment. Which SVC serves the UF comes from the adapters' table, the one file a maintainer updates
 * when a state moves; the decider holds the rules.
 */
export const contingenciaHandler = (deps: ContingenciaHandlerDeps) => {
  const run = handles(deps, contingenciaDecider, (c) => contingenciaStream(c.uf));
  // Not a carrier's command: no company, and the actor (the operator) is what the auditor reads in the metadata.
  const ctx = (actor: string): CommandContext => ({
    companyId: null,
    correlationId: randomUUID(),
    causationId: null,
    requestId: null,
    actor,
    now: deps.clock(),
  });
  return {
    ativar: async (uf: string, justificativa: string, actor: string): Promise<Chaveado<ContingenciaAtivada>> => {
      const { events, position } = await run(ctx(actor), { type: 'AtivarContingencia', uf, justificativa });
      return { contingencia: events[0]!.data as ContingenciaAtivada, position };
    },
    desativar: async (uf: string, actor: string): Promise<Chaveado<ContingenciaDesativada>> => {
      const { events, position } = await run(ctx(actor), { type: 'DesativarContingencia', uf });
      return { contingencia: events[0]!.data as ContingenciaDesativada, position };
    },
    /** The UFs in contingency now, from the read model the CT-e builder reads. */
    listar: (): Promise<ContingenciaRow[]> => contingenciasAtivas(deps.pool),
  };
};
export type ContingenciaHandler = ReturnType<typeof contingenciaHandler>;
