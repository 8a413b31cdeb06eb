import { scaledDecimal } from '../xml/decimal';

/**
 * Money in integer cents (ruling 10): every amount the domain keeps, sums or splits is a whole number of centavos, so
 * that totals add up exactly. Reais (a JSON number like 19.99) and decimal text ("19.99" in a CT-e, NF-e or MDF-e)
 * exist only at the edges, and this module is the one place that converts between them and cents.
 */
export type Centavos = number;

/** A value that can be cents: a non-negative integer that a JS number holds exactly (below 2^53). */
export const ehCentavos = (v: unknown): v is Centavos => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * A fiscal XML or JSON decimal string ("1234.5", "7", "-0.10") as exact integer cents, read digit by digit (no
 * floating point); null when it is not a decimal of at most two places, has more than `maxDigitosInteiros` integer
 * digits, or would not be exact as a JS number. Callers word their own error.
 */
export function centavosDeDecimal(texto: string, maxDigitosInteiros?: number): Centavos | null {
  const c = scaledDecimal(texto, 2, maxDigitosInteiros);
  return c !== null && Number.isSafeInteger(c) ? c : null;
}

/**
 * Cents of a reais value that a request schema already holds to two decimals (`multipleOf: 0.01`): rounding to the
 * nearest cent only removes the binary noise of the double (19.99 * 100 = 1998.9999999999998).
 */
export const centavosDeReais = (reais: number): Centavos => Math.round(reais * 100);

/**
 * Cents of a reais value taken as written, refused (null) when it is negative or has more than two decimals, where
 * rounding would change what the client asked for. The shortest decimal text of the double is what the client wrote,
 * so reading that text avoids the binary noise without rounding.
 */
export function centavosExatos(valor: number): Centavos | null {
  if (!Number.isFinite(valor) || valor < 0) return null;
  const m = /^([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(String(valor));
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Cents as the reais number a JSON answer carries (1234.5 for 123450): the division is exact to the printed cent. */
export const reaisDeCentavos = (centavos: Centavos): number => centavos / 100;

const inteiroEFracao = (centavos: Centavos): [sinal: string, inteiro: string, fracao: string] => {
  const a = Math.abs(centavos);
  return [centavos < 0 ? '-' : '', String(Math.floor(a / 100)), String(a % 100).padStart(2, '0')];
};

/**
 * Cents as a decimal with exactly two places ("1234.50", "-0.05"): the fiscal XML's money (TDec_1302) and the texts
 * that quote an amount (or any other hundredths, such as a percentage's). `separador` ',' gives the Brazilian decimal
 * comma without thousands grouping ("1234,50").
 */
export function decimalDeCentavos(centavos: Centavos, separador: '.' | ',' = '.'): string {
  const [sinal, inteiro, fracao] = inteiroEFracao(centavos);
  return `${sinal}${inteiro}${separador}${fracao}`;
}

/** Groups an integer's digits by thousands with dots, as Brazilian documents print them ("1500000" → "1.500.000"). */
export const milharBrasileiro = (digitos: string): string => digitos.replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/** Cents as printed documents show money: thousands by dots, decimal comma ("1.500,00", "-0,05"); no currency sign. */
export function brlDeCentavos(centavos: Centavos): string {
  const [sinal, inteiro, fracao] = inteiroEFracao(centavos);
  return `${sinal}${milharBrasileiro(inteiro)},${fracao}`;
}

/** The sum of amounts in cents (0 for none). */
export const somaCentavos = (valores: Iterable<Centavos>): Centavos => {
  let s = 0;
  for (const v of valores) s += v;
  return s;
};

/**
 * A percentage with up to two decimals in hundredths (1.5 → 150, basis points), so that a share of cents is an
 * integer ratio over 10 000; the rounding only removes the double's binary noise.
 */
export const centesimosDePercentual = (percentual: number): number => Math.round(percentual * 100);

/** Integer hundredths of a percentage point → percent (`1250` → 12.5), as answers and drafts carry it. */
export const percentualDeCentesimos = (centesimos: number): number => centesimos / 100;

/**
 * Hundredths of a percentage given with at most two decimals, or null when it has more (or is not finite): a rule's
 * percentages are refused rather than rounded. The tolerance only absorbs the double's noise (33.33 * 100).
 */
export function centesimosExatos(percentual: number): number | null {
  const scaled = percentual * 100;
  const rounded = Math.round(scaled);
  return Number.isFinite(scaled) && Math.abs(scaled - rounded) < 1e-6 ? rounded : null;
}

/**
 * `centavos × centesimos / 10 000` rounded half up to the cent, in integers: the share of a non-negative amount at
 * a percentage given in hundredths (ICMS at 12% is 1200; a 1.5% fee is 150).
 */
export const parteEmCentesimos = (centavos: Centavos, centesimos: number): Centavos => Math.floor((centavos * centesimos + 5_000) / 10_000);
