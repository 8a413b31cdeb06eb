import { type ParcelaRepasse, type RegraRepasse } from '@frete/contracts';
import { centesimosDePercentual } from '../money/money';

/** Ruling 14's default: a single installment of 100% at position 1, due on the release day. */
export const PARCELAS_PADRAO: readonly ParcelaRepasse[] = [{ posicao: 1, percentual: 100, dias: 0 }];

const ordenadas = (parcelas: readonly ParcelaRepasse[]): ParcelaRepasse[] =>
  [...parcelas].sort((a, b) => a.posicao - b.posicao).map((p) => ({ posicao: p.posicao, percentual: p.percentual, dias: p.dias }));

/**
 * The installment rule of a counter-CT-e (ruling 14): the batch's `repasse.parcelas`, then the driver's registered
 * rule, then the default. An empty list is no rule at all, the same as the driver registry's reading of it.
 */
export function regraDeRepasse(
  lote: readonly ParcelaRepasse[] | null | undefined,
  motorista: readonly ParcelaRepasse[] | null | undefined,
): RegraRepasse {
  if (lote && lote.length > 0) return { origem: 'lote', parcelas: ordenadas(lote) };
  if (motorista && motorista.length > 0) return { origem: 'motorista', parcelas: ordenadas(motorista) };
  return { origem: 'padrao', parcelas: ordenadas(PARCELAS_PADRAO) };
}

/**
 * Splits `total` whole units by weights in hundredths of a percent (largest remainder, Hamilton): every position gets
 * `minimo`, then each further unit goes to the position furthest below its exact quota (`total × peso / 10 000`).
 * Ties go to the LAST position, the spec's remainder rule for an even split (batch rule 3), so that an even split and
 * a percentage split round the same way. The result sums exactly `total`; the caller guarantees
 * `total ≥ minimo × weights.length`.
 */
function repartir(total: number, pesos: readonly number[], minimo: number): number[] {
  const soma = pesos.reduce((s, p) => s + p, 0);
  const quota = pesos.map((p) => BigInt(total) * BigInt(p));
  const escala = BigInt(soma);
  // Unit by unit from the minimum is the definition. Below its floor a position's deficit is at least one unit, above
  // every other's, so the floors come first: starting there gives the same result in fewer than `pesos.length` steps,
  // unless the minimum lifted small shares past `total` (only for a few units), where the definition runs as is.
  let partes = pesos.map((_, i) => Math.max(minimo, Number(quota[i]! / escala)));
  if (partes.reduce((s, p) => s + p, 0) > total) partes = pesos.map(() => minimo);
  let restante = total - partes.reduce((s, p) => s + p, 0);
  while (restante > 0) {
    let escolhido = 0;
    let maiorDeficit: bigint | null = null;
    for (let i = 0; i < partes.length; i++) {
      const deficit = quota[i]! - BigInt(partes[i]!) * escala;
      if (maiorDeficit === null || deficit >= maiorDeficit) {
        maiorDeficit = deficit;
        escolhido = i;
      }
    }
    partes[escolhido]! += 1;
    restante -= 1;
  }
  return partes;
}

/**
 * A value in cents split by the rule's percentages, one amount per installment in position order, exact to the
 * cent (ruling 10): each gets the floor of its share and the leftover cents go by largest remainder, ties to the
 * last positions (10 000 cents at 33.33/33.33/33.34 → 3333/3333/3334; 100 cents → 33/33/34).
 */
export function dividirPorPercentuais(centavos: number, parcelas: readonly ParcelaRepasse[]): number[] {
  if (!Number.isInteger(centavos) || centavos < 0) throw new Error(`cents must be a non-negative integer, got ${centavos}`);
  return repartir(
    centavos,
    ordenadas(parcelas).map((p) => centesimosDePercentual(p.percentual)),
    0,
  );
}

/**
 * How many whole documents of a driver group of `n` fall in each installment, in position order (batch rule 6):
 * at least one per installment, the rest by largest remainder on `n × percentual`, ties to the last positions.
 * 15 at 60/20/20 → 9/3/3; 3 → 1/1/1; 4 → 2/1/1 (quotas 2.4/0.8/0.8, the minimum of one lifts 2 and 3);
 * 8 → 5/1/2 (quotas 4.8/1.6/1.6: the remaining one goes to the tie's last). Only for `n ≥` the number of installments;
 * below it each document is split instead.
 */
export function distribuirDocumentos(n: number, parcelas: readonly ParcelaRepasse[]): number[] {
  const k = parcelas.length;
  if (!Number.isInteger(n) || n < k || k === 0) throw new Error(`cannot spread ${n} documents over ${k} installments`);
  return repartir(
    n,
    ordenadas(parcelas).map((p) => centesimosDePercentual(p.percentual)),
    1,
  );
}

/**
 * The position whose bucket holds the document of 0-based `ordem` among `n` (documents ordered by their place in
 * the batch): the first buckets take the first documents. The bucket is decided by position, not by value.
 */
export function posicaoDoDocumento(ordem: number, n: number, parcelas: readonly ParcelaRepasse[]): number {
  if (ordem < 0 || ordem >= n) throw new Error(`document ${ordem} is outside a group of ${n}`);
  const regra = ordenadas(parcelas);
  const contagens = distribuirDocumentos(n, regra);
  let acumulado = 0;
  for (let i = 0; i < regra.length; i++) {
    acumulado += contagens[i]!;
    if (ordem < acumulado) return regra[i]!.posicao;
  }
  throw new Error('unreachable: the counts sum n');
}
