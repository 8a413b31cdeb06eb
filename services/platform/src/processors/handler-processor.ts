import { type RecordedEvent } from '@frete/contracts';
import { type Processor } from './processor';

export type EventHandler = (event: RecordedEvent) => Promise<void>;

/** A handler that needs only some events of its type (see `Processor.needs`). */
export interface SelectiveHandler {
  needs(event: RecordedEvent): boolean;
  handle: EventHandler;
  /** Which of its events must wait for each other (see `Processor.keyOf`); the stream when absent. */
  keyOf?(event: RecordedEvent): string;
}

/** A processor made of one handler per event type. */
export class HandlerProcessor implements Processor {
  private readonly handlers: ReadonlyMap<string, EventHandler>;
  private readonly filters: ReadonlyMap<string, (event: RecordedEvent) => boolean>;
  private readonly keys: ReadonlyMap<string, (event: RecordedEvent) => string>;

  constructor(
    readonly name: string,
    handlers: ReadonlyMap<string, EventHandler | SelectiveHandler> = new Map(),
  ) {
    const plain = new Map<string, EventHandler>();
    const filters = new Map<string, (event: RecordedEvent) => boolean>();
    const keys = new Map<string, (event: RecordedEvent) => string>();
    for (const [type, h] of handlers) {
      if (typeof h === 'function') plain.set(type, h);
      else {
        plain.set(type, h.handle);
        filters.set(type, h.needs);
        if (h.keyOf) keys.set(type, h.keyOf);
      }
    }
    this.handlers = plain;
    this.filters = filters;
    this.keys = keys;
  }

  keyOf(event: RecordedEvent): string {
    return this.keys.get(event.type)?.(event) ?? event.streamId;
  }

  handles(eventType: string): boolean {
    return this.handlers.has(eventType);
  }

  needs(event: RecordedEvent): boolean {
    return this.filters.get(event.type)?.(event) ?? true;
  }

  async handle(event: RecordedEvent): Promise<void> {
    await this.handlers.get(event.type)?.(event);
  }
}
