import { type RecordedEvent } from '@frete/contracts';
import { contextOfTraceparent, openSpan, type OpenSpan, SpanKind } from './spans';

/** The relay's `relay.publish` span of one event, in the trace of the append that recorded it; ended once acknowledged. */
export function relayPublishSpan(event: RecordedEvent): OpenSpan {
  return openSpan('relay.publish', {
    kind: SpanKind.PRODUCER,
    parent: contextOfTraceparent(event.metadata.traceparent),
    attributes: { 'event.id': event.id, 'event.type': event.type, 'event.stream': event.streamId },
  });
}
