/**
 * `valores.frete_bruto` over N rows (batch rule 3): total ÷ N in cents, the remainder one cent each on the LAST rows,
 * so that the parts sum exactly the total.
 */
export function ratearCentavos(total: number, n: number): number[] {
  if (!Number.isInteger(total) || total < 0 || !Number.isInteger(n) || n < 1) throw new RangeError(`cannot split ${total} cents over ${n}`);
  const base = Math.floor(total / n);
  const resto = total - base * n;
  return Array.from({ length: n }, (_, i) => base + (i >= n - resto ? 1 : 0));
}
