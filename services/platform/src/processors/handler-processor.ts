import { type RecordedEvent } from '@frete/contracts';
import { type Processor } from './processor';

export type EventHandler = (event: RecordedEvent) => Promise<void>;

/** A processor made of one handler per event type. */
export class HandlerProcessor implements Processor {
  constructor(
    readonly name: string,
    private readonly handlers: ReadonlyMap<string, EventHandler> = new Map(),
  ) {}

  handles(eventType: string): boolean {
    return this.handlers.has(eventType);
  }

  async handle(event: RecordedEvent): Promise<void> {
    await this.handlers.get(event.type)?.(event);
  }
}
