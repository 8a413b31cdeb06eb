import { Type, type Static } from '@sinclair/typebox';

/** Metadata every stored event carries (issue 2, point 3). */
export const EventMetadata = Type.Object({
  company_id: Type.Union([Type.String(), Type.Null()], { description: 'Tenant; null for operator-wide events' }),
  correlation_id: Type.String(),
  causation_id: Type.Union([Type.String(), Type.Null()]),
  request_id: Type.Union([Type.String(), Type.Null()]),
  actor: Type.String({ description: '`credential:<id>`, `operator`, `processor:<name>` or `system`' }),
});
export type EventMetadata = Static<typeof EventMetadata>;
