/**
 * Weight in integer grams, as money is in integer cents: the domain keeps and sums grams, and kg (a JSON number like
 * 12.5, or the 4-decimal `qCarga` of a CT-e or MDF-e) exists only at the edges. This module converts between them.
 */
export type Gramas = number;

/** Grams of a kg value that a request schema holds to three decimals (`multipleOf: 0.001`); the rounding removes the double's noise. */
export const gramasDeKg = (kg: number): Gramas => Math.round(kg * 1000);

/** Grams as the kg number a JSON answer carries (12.5 for 12500). */
export const kgDeGramas = (gramas: Gramas): number => gramas / 1000;

/** Grams as kg with four decimals ("12.5000"): the MDF-e's `qCarga` (TDec_1104) and the DAMDFE's total weight. */
export const textoKgDeGramas = (gramas: Gramas): string => `${Math.floor(gramas / 1000)}.${String(gramas % 1000).padStart(3, '0')}0`;

/** One `infQ` of a CT-e's cargo as read: `cUnid` and `qCarga` as written. */
export interface QuantidadeCarga {
  unidade: string | null;
  quantidade: string | null;
}

/**
 * Gross weight in grams of a CT-e's cargo: the sum of its `infQ` in KG (`cUnid` 01) and TON (02), rounded to the
 * gram; other units (m³, litres, units, …) are not a weight and count 0, as does a quantity that is not a number.
 */
export function gramasDasQuantidades(quantidades: readonly QuantidadeCarga[]): Gramas {
  let g = 0;
  for (const q of quantidades) {
    const v = Number(q.quantidade ?? '');
    if (!Number.isFinite(v)) continue;
    if (q.unidade === '01') g += Math.round(v * 1000);
    else if (q.unidade === '02') g += Math.round(v * 1_000_000);
  }
  return g;
}
