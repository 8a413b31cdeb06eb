import { CATEGORIAS_VEICULARES, type CategoriaVeicular } from '@frete/contracts';
import { parteEmCentesimos, somaCentavos } from '../money/money';

/**
 * The money of a toll pass (ruling 10: integer cents). The toll is the sum of the plazas' tariffs for the vehicle's
 * category; the service fee is 1.5% of it, rounded half up to the cent, and never less than 1.00. A purchase debits
 * toll + fee from the operational account; a cancellation refunds both in full.
 */
export const TAXA_SERVICO = {
  /** Basis points of the toll total: 150 = 1.5%. */
  pontos_base: 150,
  minimo_centavos: 100,
} as const;

export const taxaServicoCentavos = (pedagioCentavos: number): number =>
  Math.max(TAXA_SERVICO.minimo_centavos, parteEmCentesimos(pedagioCentavos, TAXA_SERVICO.pontos_base));

export interface ValoresValePedagio {
  valor_pedagio_centavos: number;
  taxa_centavos: number;
  valor_total_centavos: number;
}

export function valoresValePedagio(tarifasCentavos: readonly number[]): ValoresValePedagio {
  const pedagio = somaCentavos(tarifasCentavos);
  const taxa = taxaServicoCentavos(pedagio);
  return { valor_pedagio_centavos: pedagio, taxa_centavos: taxa, valor_total_centavos: pedagio + taxa };
}

export const eixosDaCategoria = (categoria: CategoriaVeicular): number => CATEGORIAS_VEICULARES[categoria];

/** MDF-e `valePed/disp/tpValePed`. */
export const tpValePed = (tipo: 'TAG' | 'placa'): '01' | '04' => (tipo === 'TAG' ? '01' : '04');
