/**
 * Money of a batch in integer cents (ruling 10). A value given by key or leg is frozen as written: one with more than
 * two decimals is refused, never rounded.
 */
export function centavosExatos(valor: number): number | null {
  if (!Number.isFinite(valor) || valor < 0) return null;
  // The shortest decimal text of the double is what the client wrote; reading it avoids binary noise (19.99 * 100).
  const texto = String(valor);
  const m = /^([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(texto);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

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
