import { comparePositions, START } from '@frete/contracts';
import { type EventStore } from '@frete/platform';
import { type ProcessadorLote } from './processador';

/**
 * The outcomes a batch learns from other streams, with the flow step that tells it each one (an authorization comes
 * with the payout's outcome that follows it).
 */
const DESFECHOS: ReadonlySet<string> = new Set([
  'cte.rejeitado',
  'cte.denegado',
  'repasse.documento_registrado',
  'repasse.registro_falhou',
]);

const PAGINA = 500;

/**
 * Batches whose rows ended before the batch learned its rows' outcomes (histories written before `lote.concluido`
 * existed) never got their end event: the emission processor's checkpoint was already past those outcomes. This
 * reads the log up to its head and tells each batch the outcomes it missed. Every appended id derives from the
 * outcome event, and a batch that already knows an outcome records nothing, so running it again appends nothing.
 */
export async function reconciliarLotes(store: EventStore, processador: ProcessadorLote): Promise<{ desfechos: number }> {
  const head = await store.headPosition();
  let from = START;
  let desfechos = 0;
  for (;;) {
    const page = await store.readAll(from, PAGINA);
    for (const event of page) {
      if (comparePositions(event.position, head) > 0) return { desfechos };
      if (!DESFECHOS.has(event.type)) continue;
      await processador.aoEvento(event);
      desfechos++;
    }
    const last = page[page.length - 1];
    if (!last || page.length < PAGINA) return { desfechos };
    from = last.position;
  }
}
