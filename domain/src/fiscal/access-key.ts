/**
 * Access keys of fiscal documents (44 characters: cUF, AAMM, CNPJ, mod, serie, number, tpEmis, code, cDV).
 * The check digit is mod 11 with weights 2..9 from the right over ASCII − 48 (so the 2026 alphanumeric CNPJ in
 * positions 7–18 works as digits do); a remainder of 0 or 1 gives 0.
 */
export const ACCESS_KEY = /^[0-9]{6}[A-Z0-9]{12}[0-9]{26}$/;

export function accessKeyCheckDigit(first43: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = first43.length - 1; i >= 0; i--) {
    sum += (first43.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

export const isValidAccessKey = (key: string): boolean => ACCESS_KEY.test(key) && accessKeyCheckDigit(key.slice(0, 43)) === Number(key[43]);

/** The parts of a key, for checks against the document's own fields. */
export const accessKeyParts = (key: string) => ({
  cUF: key.slice(0, 2),
  aamm: key.slice(2, 6),
  emitente: key.slice(6, 20),
  modelo: key.slice(20, 22),
  serie: Number(key.slice(22, 25)),
  numero: Number(key.slice(25, 34)),
  tpEmis: key.slice(34, 35),
  codigo: key.slice(35, 43),
  dv: key.slice(43),
});
