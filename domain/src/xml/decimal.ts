/**
 * A fiscal decimal ("1234.5") as an exact integer in units of 10^-places (123450 with 2 places), with no
 * floating point on the way; null when `value` is not one. Readers word their own error.
 */
export function scaledDecimal(value: string, places: number, maxIntegerDigits?: number): number | null {
  const decimals = places > 0 ? `(?:\\.(\\d{1,${places}}))?` : '';
  const m = new RegExp(`^(-?)(\\d{1,${maxIntegerDigits ?? ''}})${decimals}$`).exec(value.trim());
  if (!m) return null;
  const n = Number(m[2]) * 10 ** places + Number((m[3] ?? '').padEnd(places, '0'));
  return m[1] ? -n : n;
}
