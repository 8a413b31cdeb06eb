import { createHash } from 'node:crypto';
import {
  CATEGORIAS_VEICULARES,
  type CategoriaVeicular,
  type FornecedorValePedagio,
  type LocalValePedagio,
  type PracaValePedagio,
} from '@frete/contracts';
import { cnpjCheckDigits } from '@frete/domain';
import { type Compra, type DepositosContaOperacional, type PedidoCompra, type ProvedorValePedagio, type Roteiro } from './port';

/**
 * The sandbox's toll pass supplier: a deterministic, plausible catalogue of toll plazas and no regulatory effect.
 *
 * A route's plazas are derived from the pair of IBGE codes alone, so the same route and category always get the same
 * plazas and tariffs, and the way back crosses the same plazas in reverse order:
 * - distance: the great-circle distance between the UFs' capitals × 1.25 (roads are not straight), plus 40–160 km
 *   drawn from the pair (0 for the same municipality, which crosses no plaza);
 * - one plaza per ~110 km (at least 1, at most 40), the first half in the origin's UF, the rest in the destination's,
 *   on one highway per UF (a federal `BR-…` between UFs, a state or federal one within a UF);
 * - each plaza's base tariff (per axle) is 3.20 to 14.90; the category's tariff is the base × its axles (the ANTT rule
 *   for commercial vehicles; `14`, above 10 axles, is charged as 11).
 * The purchase number is derived from the toll pass's id; cancellations and passages always succeed.
 */

/** A CNPJ with valid check digits that names no real company: the simulated FVPO (MDF-e `CNPJForn`). */
export const CNPJ_FVPO_SIMULADA = `998877660001${cnpjCheckDigits('998877660001')}`;

export const FORNECEDOR_SIMULADO: FornecedorValePedagio = { cnpj: CNPJ_FVPO_SIMULADA, nome: 'FVPO SIMULADA - HOMOLOGAÇÃO', simulado: true };

/** Approximate coordinates of each UF's capital (degrees). */
const CAPITAIS: Record<string, [number, number]> = {
  AC: [-9.97, -67.81],
  AL: [-9.67, -35.74],
  AP: [0.03, -51.07],
  AM: [-3.12, -60.02],
  BA: [-12.97, -38.5],
  CE: [-3.73, -38.52],
  DF: [-15.79, -47.88],
  ES: [-20.32, -40.34],
  GO: [-16.68, -49.25],
  MA: [-2.53, -44.3],
  MT: [-15.6, -56.1],
  MS: [-20.44, -54.65],
  MG: [-19.92, -43.94],
  PA: [-1.46, -48.5],
  PB: [-7.12, -34.86],
  PR: [-25.43, -49.27],
  PE: [-8.05, -34.88],
  PI: [-5.09, -42.8],
  RJ: [-22.91, -43.17],
  RN: [-5.79, -35.21],
  RS: [-30.03, -51.23],
  RO: [-8.76, -63.9],
  RR: [2.82, -60.67],
  SC: [-27.6, -48.55],
  SP: [-23.55, -46.63],
  SE: [-10.91, -37.07],
  TO: [-10.18, -48.33],
};

const FEDERAIS = [
  'BR-101',
  'BR-116',
  'BR-040',
  'BR-050',
  'BR-060',
  'BR-153',
  'BR-163',
  'BR-262',
  'BR-277',
  'BR-290',
  'BR-324',
  'BR-364',
  'BR-376',
  'BR-381',
  'BR-393',
  'BR-470',
];
const CONCESSIONARIAS = [
  'RODOVIAS ALFA',
  'VIA BETA',
  'AUTOPISTA GAMA',
  'CONCESSIONARIA DELTA',
  'ECOVIA EPSILON',
  'TRIUNFO ZETA',
  'ROTA ETA',
  'VIAS THETA',
];

const KM_POR_PRACA = 110;
const MAX_PRACAS = 40;

function distanciaKm(a: [number, number], b: [number, number]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** A number in [0, 2^32) drawn from the route and a purpose: the same inputs always give the same number. */
const sorteio =
  (seed: string) =>
  (...purpose: (string | number)[]): number =>
    createHash('sha256')
      .update(`${seed}|${purpose.join('|')}`)
      .digest()
      .readUInt32BE(0);

const codigoDaPraca = (seed: string, i: number, uf: string) =>
  `SIM${uf}${createHash('sha256').update(`${seed}|praca|${i}`).digest('hex').slice(0, 6).toUpperCase()}`;

/** The simulated catalogue: the plazas of a route for a category (see the module's comment). */
export function roteiroSimulado(origem: LocalValePedagio, destino: LocalValePedagio, categoria: CategoriaVeicular): Roteiro {
  const eixos = CATEGORIAS_VEICULARES[categoria];
  if (origem.codigo_ibge === destino.codigo_ibge) return { fornecedor: FORNECEDOR_SIMULADO, distancia_km: 0, pracas: [] };
  const invertido = origem.codigo_ibge > destino.codigo_ibge;
  const [a, b] = invertido ? [destino, origem] : [origem, destino];
  const seed = `${a.codigo_ibge}>${b.codigo_ibge}`;
  const r = sorteio(seed);
  const base = a.uf === b.uf ? 0 : distanciaKm(CAPITAIS[a.uf] ?? [0, 0], CAPITAIS[b.uf] ?? [0, 0]) * 1.25;
  const distancia = Math.round(base + 40 + (r('desvio') % 121));
  const n = Math.min(MAX_PRACAS, Math.max(1, Math.round(distancia / KM_POR_PRACA)));
  const rodovia = (uf: string, lado: string) =>
    a.uf !== b.uf || r('estadual', lado) % 3 !== 0
      ? FEDERAIS[r('rodovia', lado) % FEDERAIS.length]!
      : `${uf}-${100 + (r('rodovia', lado) % 40) * 10}`;
  const lados = {
    a: { uf: a.uf, rodovia: rodovia(a.uf, 'a'), km0: 5 + (r('km', 'a') % 300) },
    b: { uf: b.uf, rodovia: rodovia(b.uf, 'b'), km0: 5 + (r('km', 'b') % 300) },
  };
  const espaco = distancia / n;
  const pracas: Omit<PracaValePedagio, 'ordem'>[] = [];
  for (let i = 0; i < n; i++) {
    const lado = i < Math.ceil(n / 2) ? lados.a : lados.b;
    const indiceNoLado = lado === lados.a ? i : i - Math.ceil(n / 2);
    const km = Math.round((lado.km0 + indiceNoLado * espaco + (r('km', i) % 200) / 10) * 10) / 10;
    const tarifaBase = 320 + (r('tarifa', i) % 118) * 10;
    pracas.push({
      codigo: codigoDaPraca(seed, i, lado.uf),
      nome: `PRAÇA SIMULADA ${lado.rodovia} KM ${km.toFixed(1).replace('.', ',')}`,
      rodovia: lado.rodovia,
      km,
      uf: lado.uf,
      concessionaria: `${CONCESSIONARIAS[r('concessionaria', lado.rodovia) % CONCESSIONARIAS.length]} (SIMULADA)`,
      tarifa_centavos: tarifaBase * eixos,
    });
  }
  const ordenadas = invertido ? pracas.reverse() : pracas;
  return { fornecedor: FORNECEDOR_SIMULADO, distancia_km: distancia, pracas: ordenadas.map((p, i) => ({ ordem: i + 1, ...p })) };
}

/** The IDVPO of a simulated purchase: 20 digits derived from the toll pass's id, starting with 9. */
export const numeroCompraSimulado = (valePedagioId: string): string => {
  const n = BigInt(`0x${createHash('sha256').update(`vpo|${valePedagioId}`).digest('hex').slice(0, 24)}`) % 10n ** 19n;
  return `9${n.toString().padStart(19, '0')}`;
};

export class ProvedorValePedagioSimulado implements ProvedorValePedagio {
  readonly disponivel = true;

  async roteirizar(pedido: { origem: LocalValePedagio; destino: LocalValePedagio; categoria: CategoriaVeicular }): Promise<Roteiro> {
    return roteiroSimulado(pedido.origem, pedido.destino, pedido.categoria);
  }

  async comprar(pedido: PedidoCompra): Promise<Compra> {
    return { numero: numeroCompraSimulado(pedido.vale_pedagio_id), fornecedor: FORNECEDOR_SIMULADO };
  }

  async cancelar(): Promise<void> {
    // The simulated supplier has nothing to undo.
  }

  async simularPassagem(): Promise<void> {
    // The passage is the service's record; the simulated supplier keeps none.
  }
}

/** Sandbox deposits: credited at once, no money moves. */
export class DepositosSimulados implements DepositosContaOperacional {
  readonly disponivel = true;
  readonly origem = 'deposito_simulado' as const;

  async confirmar(): Promise<void> {
    // Nothing to confirm: the deposit is simulated.
  }
}
