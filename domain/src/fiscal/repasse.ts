import { type ParcelaRepasse } from '@frete/contracts';
import { centesimosExatos, decimalDeCentavos } from '../money/money';

export interface ParcelaProblema {
  /** Relative path under the list: `''` for the list itself, `0.dias` for an item's field. */
  path: string;
  message: string;
}

/**
 * The rule of spec section 8 for installments: at most 3; positions 1..3, unique and consecutive from 1; `dias`
 * 0..30; each share above 0 with at most two decimals, together exactly 100 (compared in hundredths). An empty list
 * is no rule at all (the default of ruling 14 applies). Returns every problem found; none means valid.
 */
export function problemasParcelas(parcelas: readonly ParcelaRepasse[]): ParcelaProblema[] {
  const problems: ParcelaProblema[] = [];
  if (parcelas.length > 3) problems.push({ path: '', message: 'at most 3 installments' });
  const seen = new Set<number>();
  let total = 0;
  let exact = true;
  parcelas.forEach((p, i) => {
    if (!Number.isInteger(p.posicao) || p.posicao < 1 || p.posicao > 3)
      problems.push({ path: `${i}.posicao`, message: 'must be 1, 2 or 3' });
    else if (seen.has(p.posicao)) problems.push({ path: `${i}.posicao`, message: `position ${p.posicao} repeated` });
    seen.add(p.posicao);
    if (!Number.isInteger(p.dias) || p.dias < 0 || p.dias > 30) problems.push({ path: `${i}.dias`, message: 'must be 0 to 30' });
    const h = centesimosExatos(p.percentual);
    if (h === null || h <= 0 || h > 10000) {
      problems.push({ path: `${i}.percentual`, message: 'must be above 0 and at most 100, with up to two decimals' });
      exact = false;
    } else total += h;
  });
  if (parcelas.length > 0 && problems.length === 0) {
    const positions = [...seen].sort((a, b) => a - b);
    if (positions.some((p, i) => p !== i + 1)) problems.push({ path: '', message: 'positions must be consecutive from 1' });
  }
  if (parcelas.length > 0 && exact && total !== 10000) {
    problems.push({ path: '', message: `percentages sum ${decimalDeCentavos(total)}, not 100` });
  }
  return problems;
}
