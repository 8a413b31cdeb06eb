import { type RecordedEvent } from '@frete/contracts';

/**
 * A processor reacts to events (emission, payout). Delivery is at least once, whichever transport carries it, so
 * a handler must make its effects idempotent: derive the ids of the events it appends from the event it handles
 * (see `derivedEventId`), so that a redelivery appends nothing new.
 */
export interface Processor {
  readonly name: string;
  handles(eventType: string): boolean;
  handle(event: RecordedEvent): Promise<void>;
  /**
   * Events of one key are handled in their order, one at a time; events of different keys may be handled side by side.
   * Without it, the key is the event's stream (the order Kafka keeps too).
   */
  keyOf?(event: RecordedEvent): string;
  /**
   * Whether an event of a handled type asks anything of the processor, by its data (true when absent). One that does
   * not is passed over like an event of another type: it takes no place among those in flight, nor a turn on its key.
   */
  needs?(event: RecordedEvent): boolean;
}

/** Carries events to a processor: straight from the event store (embedded default) or over Kafka. */
export interface ProcessorTransport {
  start(processor: Processor): Promise<void>;
  stop(): Promise<void>;
}
