import { type EventHandler, HandlerProcessor } from '@frete/platform';
import {
  cancelamentoNoRepasse,
  gruposEmCache,
  liquidarPagamento,
  motoristasEmCache,
  type PayoutDeps,
  registrarDocumento,
} from '@frete/application';

/**
 * Builds and settles the driver's installments (parcelas) in reaction to emitted counter-CT-e, scans, releases
 * and payment orders.
 */
export const payoutProcessor = (handlers: ReadonlyMap<string, EventHandler> = new Map()) => new HandlerProcessor('payout', handlers);

/**
 * An authorized counter-CT-e registers its payout in the driver's group; a registered or refused cancellation is
 * decided on the group (the request that cancelled normally did it already: this catches up after a crash); a
 * payment order is handed to the rail and settled. Each appended event's id derives from the handled event's, so a
 * redelivery appends nothing new.
 */
export function payoutHandlers(options: PayoutDeps): ReadonlyMap<string, EventHandler> {
  const deps: PayoutDeps = { grupos: gruposEmCache(), motoristas: motoristasEmCache(), ...options };
  return new Map<string, EventHandler>([
    ['cte.autorizado', registrarDocumento(deps)],
    ['cte.evento_registrado', cancelamentoNoRepasse(deps, 'registrado')],
    ['cte.evento_rejeitado', cancelamentoNoRepasse(deps, 'recusado')],
    ['repasse.pagamento_solicitado', liquidarPagamento(deps)],
  ]);
}
