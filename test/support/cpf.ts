/** A valid CPF made from a small number: nine digits from `base + n` and their two check digits. */
export function cpfValido(n: number, base = 100_000_000): string {
  const digitos = String(base + n).slice(-9);
  const dv = (s: string) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += Number(s[i]) * (s.length + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = dv(digitos);
  return digitos + d1 + dv(digitos + d1);
}
