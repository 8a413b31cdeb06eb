import { type EventData } from '@frete/contracts';
import { type LoteState, solicitacaoLoteDecider, solicitacaoLoteStream } from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { type CommandContext, type CommandDeps, load } from '../commands/execute';
import { handles } from '../commands/handles';

/** The subcontractor as the contractor's answers name it. */
export interface SubcontratadaPublica {
  cnpj: string;
  nome: string;
}

/** The request's record of a batch created for a requester: what the batch's plan and its owner's public names say. */
export function aceitaDoLote(
  lote: Pick<LoteState, 'batch_id' | 'solicitante_company_id' | 'modo' | 'linhas'>,
  subcontratada: SubcontratadaPublica,
): EventData<'solicitacao_lote.aceita'> {
  if (!lote.batch_id || !lote.solicitante_company_id) throw new Error('a batch without a requester has no request to record');
  return {
    batch_id: lote.batch_id,
    company_id: lote.solicitante_company_id,
    subcontratada,
    modo: lote.modo,
    total_linhas: lote.linhas.length,
  };
}

/**
 * The contractor's record of the batches it requests on other companies' accounts (issue 26), in its own chain. The
 * answer to the request records it, the emission processor its outcome, the operator's transcription both for older
 * batches; each event's id derives from the batch, so whichever of them comes second appends nothing.
 */
export const solicitacaoLoteHandler = (deps: CommandDeps) => {
  const run = handles(deps, solicitacaoLoteDecider, (c) => solicitacaoLoteStream(c.batch_id));
  const ids = (batchId: string) => ({ eventId: (_i: number, e: { type: string }) => derivedEventId(batchId, e.type) });
  const registrar = (ctx: CommandContext, aceita: EventData<'solicitacao_lote.aceita'>) =>
    run(ctx, { type: 'RegistrarSolicitacaoLote', ...aceita }, ids(aceita.batch_id));
  return {
    registrar,
    /**
     * The batch's end, for its requester. A request whose answer failed after the batch was created has no record yet:
     * it is recorded first, from `aceita` (read only then).
     */
    concluir: async (
      ctx: CommandContext,
      concluida: EventData<'solicitacao_lote.concluida'>,
      aceita: () => Promise<EventData<'solicitacao_lote.aceita'>>,
    ) => {
      const atual = await load(deps.store, solicitacaoLoteStream(concluida.batch_id), solicitacaoLoteDecider);
      if (!atual.existe) await registrar(ctx, await aceita());
      return run(ctx, { type: 'ConcluirSolicitacaoLote', ...concluida }, ids(concluida.batch_id));
    },
  };
};
export type SolicitacaoLoteHandler = ReturnType<typeof solicitacaoLoteHandler>;
