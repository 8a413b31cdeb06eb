import { type ServicoContraCte, type EmissorCte, type EmissorMdfe, ProcessadorLote } from '@frete/application';
import { type EventHandler, HandlerProcessor, type SelectiveHandler } from '@frete/platform';
import { type ServicoCiot } from '@frete/application';

/**
 * Emits fiscal documents (CT-e, counter-CT-e, events, MDF-e) through the fiscal-authority port in reaction to
 * issue requests.
 */
export const emissionProcessor = (handlers: ReadonlyMap<string, EventHandler | SelectiveHandler> = new Map()) =>
  new HandlerProcessor('emission', handlers);

/** What the processor does for each request: a CT-e issue goes to the authority once its XML is signed. */
export function emissionHandlers(
  emissorCte: EmissorCte,
  emissorMdfe?: EmissorMdfe,
  contraCte?: ServicoContraCte,
  lote?: ProcessadorLote,
  ciot?: ServicoCiot,
): ReadonlyMap<string, EventHandler | SelectiveHandler> {
  // A counter-CT-e the authority refused, or that was cancelled, gives its contractor key back (batch rule 7).
  const liberar =
    (motivo: 'rejeitado' | 'cancelado'): EventHandler =>
    async (e) => {
      await contraCte?.liberar((e.data as { cte_id: string }).cte_id, motivo, e.id);
    };
  // A refused counter-CT-e also fails its batch row; the row's end may be what ends the batch.
  const recusado: EventHandler = async (e) => {
    await liberar('rejeitado')(e);
    await lote?.aoEvento(e);
  };
  // The batch workflow follows its own events and its rows' outcomes (ProcessadorLote.EVENTOS).
  const doLote: SelectiveHandler = {
    needs: (e) => lote?.pedeTrabalho(e) ?? false,
    handle: async (e) => lote?.aoEvento(e),
    keyOf: ProcessadorLote.chaveDe,
  };
  // Each kind's issue request goes to its emitter (`EmissorDocumento.solicitacao`).
  const emissao = (emissor: EmissorCte | EmissorMdfe): [string, EventHandler] => [emissor.solicitacao, (e) => emissor.aoSolicitar(e)];
  return new Map<string, EventHandler | SelectiveHandler>([
    ['cte.rejeitado', recusado],
    ['cte.denegado', recusado],
    [
      'cte.evento_registrado',
      async (e) => {
        if ((e.data as { tp_evento: string }).tp_evento === '110111') await liberar('cancelado')(e);
      },
    ],
    // A paid full counter-CT-e keeps its key from becoming legs, even after it is cancelled (ruling 8).
    [
      'repasse.parcela_paga',
      async (e) => {
        await contraCte?.marcarPaga((e.data as { cte_id: string }).cte_id, e.id);
      },
    ],
    emissao(emissorCte),
    // A counter-CT-e batch walks its rows in blocks (its creation starts the first, each block's last row the next);
    // its rows' payout outcomes tell it they were emitted; its end goes to a requester's own log.
    ...ProcessadorLote.EVENTOS.filter((tipo) => tipo !== 'cte.rejeitado' && tipo !== 'cte.denegado').map((tipo) => [tipo, doLote] as const),
    // A CIOT declaration the provider left without verdict is asked about again (the simulated provider registers it then).
    [
      'ciot.pendente',
      async (e) => {
        const d = e.data as { ciot_id: string; company_id: string };
        await ciot?.acompanhar(d.company_id, d.ciot_id, e.id);
      },
    ],
    ...(emissorMdfe ? [emissao(emissorMdfe)] : []),
  ]);
}
