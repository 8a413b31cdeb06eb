/**
 * RENAVAM (vehicle registration number): 9 to 11 digits. The number is left-padded with zeros to 11; the first 10
 * digits, weighted 3,2,9,8,7,6,5,4,3,2, give the check digit (sum × 10) mod 11, where 10 becomes 0.
 */
const WEIGHTS = [3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Strips spaces, dots and hyphens and pads to 11 digits when it has 9 to 11 digits; otherwise only strips. */
export const normalizeRenavam = (raw: string): string => {
  const digits = raw.replace(/[\s.-]/g, '');
  return /^[0-9]{9,11}$/.test(digits) ? digits.padStart(11, '0') : digits;
};

/** The check digit of the first 10 digits of a padded RENAVAM. */
export const renavamCheckDigit = (first10: string): number => {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(first10[i]) * WEIGHTS[i]!;
  const d = (sum * 10) % 11;
  return d === 10 ? 0 : d;
};

export const isValidRenavam = (raw: string): boolean => {
  const r = normalizeRenavam(raw);
  if (!/^[0-9]{11}$/.test(r) || /^0+$/.test(r)) return false;
  return renavamCheckDigit(r.slice(0, 10)) === Number(r[10]);
};
