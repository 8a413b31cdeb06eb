import { type RecordedEvent } from '@frete/contracts';
import { type Processor } from '../processors/processor';
import { type Logger, withLogFields } from './logger';
import { contextOfTraceparent, inSpan, SpanKind } from './spans';

/**
 * The processor with each event handled in a `processor.handle <type>` span, a child of the trace context the event
 * carries (the append that recorded it), whichever transport brought it; and with the event's id and correlation id
 * on every line logged meanwhile. A failed handling is logged here, where the event is known.
 */
export function observedProcessor(processor: Processor, logger: Logger): Processor {
  const log = logger.child({ processor: processor.name });
  const observed: Processor = {
    name: processor.name,
    handles: (type) => processor.handles(type),
    handle: (event: RecordedEvent) =>
      withLogFields({ event_id: event.id, event_type: event.type, correlation_id: event.metadata.correlation_id }, () =>
        inSpan(
          `processor.handle ${event.type}`,
          {
            kind: SpanKind.CONSUMER,
            parent: contextOfTraceparent(event.metadata.traceparent),
            attributes: {
              'processor.name': processor.name,
              'event.id': event.id,
              'event.type': event.type,
              'event.stream': event.streamId,
              'event.correlation_id': event.metadata.correlation_id,
            },
          },
          async () => {
            const started = performance.now();
            try {
              await processor.handle(event);
            } catch (err) {
              log.error({ err }, 'handling failed; the event is delivered again');
              throw err;
            }
            log.debug({ duration_ms: Math.round(performance.now() - started) }, 'event handled');
          },
        ),
      ),
  };
  // Optional members stay absent when the processor has none: the transports fall back on their own defaults.
  if (processor.keyOf) observed.keyOf = (event) => processor.keyOf!(event);
  if (processor.needs) observed.needs = (event) => processor.needs!(event);
  return observed;
}
