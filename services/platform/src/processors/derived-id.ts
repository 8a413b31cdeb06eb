import { createHash } from 'node:crypto';

/** A UUID (version 5 layout) derived from the cause's id and a purpose: the same inputs always give the same id. */
export function derivedEventId(causeEventId: string, purpose: string): string {
  const h = createHash('sha1').update(`${causeEventId}\u0000${purpose}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
