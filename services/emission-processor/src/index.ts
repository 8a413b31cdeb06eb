import { type EventHandler, HandlerProcessor } from '@frete/platform';

/**
 * Emits fiscal documents (CT-e, counter-CT-e, events, MDF-e) through the fiscal-authority port in reaction to
 * issue requests. The document engine (issues 4 and 5) registers its handlers here; until then the processor
 * follows the log and acts on nothing.
 */
export const emissionProcessor = (handlers: ReadonlyMap<string, EventHandler> = new Map()) => new HandlerProcessor('emission', handlers);
