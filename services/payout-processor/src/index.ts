import { type RecordedEvent } from '@frete/contracts';
import { type Processor } from '@frete/platform';

export type EventHandler = (event: RecordedEvent) => Promise<void>;

/**
 * Builds and settles the driver's installments (parcelas) in reaction to emitted counter-CT-e, scans, releases
 * and payment orders. Handlers are registered per event type by the payout issue; until then it acts on nothing.
 */
export class PayoutProcessor implements Processor {
  readonly name = 'payout';
  constructor(private readonly handlers: Map<string, EventHandler> = new Map()) {}
  handles(eventType: string): boolean {
    return this.handlers.has(eventType);
  }
  async handle(event: RecordedEvent): Promise<void> {
    await this.handlers.get(event.type)?.(event);
  }
}
