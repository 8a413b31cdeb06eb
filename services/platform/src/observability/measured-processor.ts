import { type RecordedEvent } from '@frete/contracts';
import { type Processor } from '../processors/processor';
import { type Metrics, quietly } from './metrics';

/**
 * The processor with its queue and its handling measured: `frete_processor_queue_depth` (events received and not yet
 * handled) and `frete_processor_handling_duration_seconds` (by event type and outcome).
 *
 * An event counts as received when the dispatch asks its key, which it does once, as it admits the event (both
 * transports hand `keyOf` to `ConcurrentDispatch`; this wrapper always has one, the stream by default as theirs). It
 * leaves the queue when its handler ends. A failed handler empties the queue: the dispatch admits nothing more and
 * drops the events waiting behind their key, which come back from the checkpoint (those still running of other keys
 * go uncounted until they end). The queue is a set of event ids, so an event dropped unseen (a failed checkpoint save)
 * leaves it when it is redelivered, instead of being counted twice.
 */
export function measuredProcessor(processor: Processor, metrics: Metrics): Processor {
  const pending = new Set<string>();
  metrics.watchProcessorQueue(processor.name, () => pending.size);
  const measured: Processor = {
    name: processor.name,
    handles: (eventType) => processor.handles(eventType),
    keyOf: (event) => {
      const key = processor.keyOf ? processor.keyOf(event) : event.streamId;
      pending.add(event.id);
      return key;
    },
    handle: async (event: RecordedEvent) => {
      const start = process.hrtime.bigint();
      let outcome = 'error';
      try {
        await processor.handle(event);
        outcome = 'ok';
      } catch (err) {
        pending.clear();
        throw err;
      } finally {
        pending.delete(event.id);
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        quietly(() => metrics.processorHandlingDuration.observe({ processor: processor.name, event_type: event.type, outcome }, seconds));
      }
    },
  };
  if (processor.needs) measured.needs = (event) => processor.needs!(event);
  return measured;
}
