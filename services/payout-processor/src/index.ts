import { type EventHandler, HandlerProcessor } from '@frete/platform';

/**
 * Builds and settles the driver's installments (parcelas) in reaction to emitted counter-CT-e, scans, releases
 * and payment orders. The payout issue registers its handlers here; until then it acts on nothing.
 */
export const payoutProcessor = (handlers: ReadonlyMap<string, EventHandler> = new Map()) => new HandlerProcessor('payout', handlers);
