import { type RecordedEvent } from '@frete/contracts';
import { type Processor } from '@frete/platform';

export type EventHandler = (event: RecordedEvent) => Promise<void>;

/**
 * Emits fiscal documents (CT-e, counter-CT-e, events, MDF-e) through the fiscal-authority port in reaction to
 * issue requests. Handlers are registered per event type by the document engine (issues 4 and 5); until then
 * it follows the log and acts on nothing.
 */
export class EmissionProcessor implements Processor {
  readonly name = 'emission';
  constructor(private readonly handlers: Map<string, EventHandler> = new Map()) {}
  handles(eventType: string): boolean {
    return this.handlers.has(eventType);
  }
  async handle(event: RecordedEvent): Promise<void> {
    await this.handlers.get(event.type)?.(event);
  }
}
