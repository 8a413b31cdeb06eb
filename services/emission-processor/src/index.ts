import { type EmissorCte, type EmissorMdfe, type EventHandler, HandlerProcessor } from '@frete/platform';

/**
 * Emits fiscal documents (CT-e, counter-CT-e, events, MDF-e) through the fiscal-authority port in reaction to
 * issue requests.
 */
export const emissionProcessor = (handlers: ReadonlyMap<string, EventHandler> = new Map()) => new HandlerProcessor('emission', handlers);

/** What the processor does for each request: a CT-e issue goes to the authority once its XML is signed. */
export function emissionHandlers(emissorCte: EmissorCte, emissorMdfe?: EmissorMdfe): ReadonlyMap<string, EventHandler> {
  return new Map<string, EventHandler>([
    ['cte.emissao_solicitada', async (e) => {
      const d = e.data as { cte_id: string; company_id: string; serie: number };
      await emissorCte.emitir(d.company_id, d.cte_id, d.serie, e.id);
    }],
    ['mdfe.emissao_solicitada', async (e) => {
      const d = e.data as { mdfe_id: string; company_id: string; serie: number };
      await emissorMdfe?.emitir(d.company_id, d.mdfe_id, d.serie, e.id);
    }],
  ]);
}
