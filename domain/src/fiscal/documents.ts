/**
 * Brazilian document numbers. CNPJ follows the 2026 alphanumeric rule (value = ASCII − 48, so digits are
 * unchanged and A = 17); the check digits are always numeric.
 */
const charValue = (c: string): number => c.charCodeAt(0) - 48;

const mod11Digit = (body: string, maxWeight: number): number => {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += charValue(body[i] as string) * weight;
    weight = weight === maxWeight ? 2 : weight + 1;
  }
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
};

/** Strips `.`, `/`, `-` and spaces and upper-cases; does not validate. */
export const normalizeCnpj = (raw: string): string => raw.replace(/[.\-/\s]/g, '').toUpperCase();

export const isValidCnpj = (raw: string): boolean => {
  const cnpj = normalizeCnpj(raw);
  if (!/^[A-Z0-9]{12}[0-9]{2}$/.test(cnpj)) return false;
  if (/^(\d)\1{13}$/.test(cnpj)) return false;
  const d1 = mod11Digit(cnpj.slice(0, 12), 9);
  const d2 = mod11Digit(cnpj.slice(0, 12) + d1, 9);
  return cnpj.endsWith(`${d1}${d2}`);
};

export const cnpjCheckDigits = (base12: string): string => {
  const d1 = mod11Digit(base12, 9);
  return `${d1}${mod11Digit(base12 + d1, 9)}`;
};

/** Root (first 8 characters): the same company's head office and branches share it. */
export const cnpjRoot = (cnpj: string): string => normalizeCnpj(cnpj).slice(0, 8);

export const normalizeCpf = (raw: string): string => raw.replace(/[.\-\s]/g, '');

export const isValidCpf = (raw: string): boolean => {
  const cpf = normalizeCpf(raw);
  if (!/^[0-9]{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digit = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(cpf[i]) * (len + 1 - i);
    return ((sum * 10) % 11) % 10;
  };
  return digit(9) === Number(cpf[9]) && digit(10) === Number(cpf[10]);
};

export const formatCnpj = (cnpj: string): string => {
  const c = normalizeCnpj(cnpj);
  return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
};
