import { type Pool } from 'pg';
import { type EventData, upcast } from '@frete/contracts';
import { type LoteEvent, loteDecider, loteStream } from '@frete/domain';
import { companyOf } from '@frete/projections';
import { derivedEventId, type EventStore, type LeitorDeAuditoria } from '@frete/platform';
import { type CommandContext, execute, toDomainEvent } from '../commands/execute';
import { aceitaDoLote, solicitacaoLoteHandler } from '../solicitacao-lote/handler';

export interface TranscricaoDeps {
  store: EventStore;
  /** The chains as recorded: which creations sit outside their owner's, and their hashes. */
  leitor: LeitorDeAuditoria;
  /** The companies' public names, for the requester's record. */
  pool: Pool;
  clock: () => Date;
}

const PAGINA = 200;

/** How the operator's acts are signed (see EventMetadata.actor). */
const OPERADOR = 'operator';

/**
 * Before issue 26 a batch a contractor requested under a grant was created with the contractor's metadata: its
 * `lote.criado` sits in the contractor's hash chain, and the subcontractor's log lacks how its batch began. A chain
 * covers its events as recorded, so nothing is moved or rehashed (a chain rewritten could no longer be told from a
 * tampered one): each such creation is transcribed into its owner's chain (`lote.criacao_transcrita`, naming the
 * original's id and hash), and the requester gets the record it would get today (`solicitacao_lote.aceita`, and
 * `solicitacao_lote.concluida` once the batch ended). Ids derive from the batch and the deciders record each once, so
 * running it again appends nothing.
 */
export async function transcreverCriacoesDeLotes(deps: TranscricaoDeps): Promise<{ criacoes: number; eventos_gravados: number }> {
  const solicitacoes = solicitacaoLoteHandler({ store: deps.store });
  let criacoes = 0;
  let gravados = 0;
  let apos = 0n;
  for (;;) {
    const pagina = await deps.leitor.foraDaCadeiaDoDono('lote.criado', apos, PAGINA);
    for (const original of pagina) {
      criacoes++;
      const criado = upcast(original).data as EventData<'lote.criado'>;
      const batchId = criado.batch_id;
      const ctx = (companyId: string): CommandContext => ({
        companyId,
        correlationId: batchId,
        causationId: original.id,
        requestId: null,
        actor: OPERADOR,
        now: deps.clock(),
      });
      const transcrita = await execute(
        deps,
        loteStream(batchId),
        loteDecider,
        {
          type: 'TranscreverCriacao',
          batch_id: batchId,
          cadeia: original.metadata.company_id,
          evento: { id: original.id, recorded_at: original.recordedAt.toISOString(), hash: original.hash },
          criado,
        },
        ctx(criado.company_id),
        { eventId: (_i, e) => derivedEventId(batchId, e.type) },
      );
      gravados += transcrita.events.length;

      const solicitante = criado.solicitante_company_id;
      if (!solicitante) continue;
      const sub = await companyOf(deps.pool, criado.company_id, '');
      if (!sub) throw new Error(`company ${criado.company_id} of batch ${batchId} is not in the read models`);
      const aceita = aceitaDoLote(criado, { cnpj: sub.cnpj, nome: sub.razao_social });
      gravados += (await solicitacoes.registrar(ctx(solicitante), aceita)).events.length;
      const historia = (await deps.store.readStream(loteStream(batchId))).map((e) => toDomainEvent<LoteEvent>(e));
      const fim = historia.find((e) => e.type === 'lote.concluido');
      // Only an ended batch's outcome is carried here; one still running reaches its requester through the emission
      // processor when it ends, as any batch's does.
      if (fim?.type === 'lote.concluido') {
        const { company_id: _dona, ...contagem } = fim.data;
        const concluida = await solicitacoes.concluir(ctx(solicitante), { ...contagem, company_id: solicitante }, async () => aceita);
        gravados += concluida.events.length;
      }
    }
    const ultimo = pagina[pagina.length - 1];
    if (!ultimo || pagina.length < PAGINA) return { criacoes, eventos_gravados: gravados };
    apos = ultimo.position.prepare;
  }
}
