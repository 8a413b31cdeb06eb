import { Type, type Static } from '@sinclair/typebox';

/** Metadata every stored event carries (issue 2, point 3). */
export const EventMetadata = Type.Object({
  company_id: Type.Union([Type.String(), Type.Null()], { description: 'Tenant; null for operator-wide events' }),
  correlation_id: Type.String(),
  causation_id: Type.Union([Type.String(), Type.Null()]),
  request_id: Type.Union([Type.String(), Type.Null()]),
  actor: Type.String({ description: '`credential:<id>`, `operator`, `processor:<name>` or `system`' }),
  // Optional and written only while tracing is on: events recorded before it, or without it, lack it. The hash chain
  // covers the metadata as stored, so its presence changes nothing there.
  traceparent: Type.Optional(
    Type.String({ description: 'W3C trace context of the append that recorded it: processors continue that trace' }),
  ),
});
export type EventMetadata = Static<typeof EventMetadata>;
