import {
  type CategoriaVeicular,
  type FornecedorValePedagio,
  type LocalValePedagio,
  type OrigemCredito,
  type PracaValePedagio,
  type TipoValePedagio,
} from '@frete/contracts';

/**
 * The toll pass supplier behind a port: an authorised FVPO (Res. ANTT 6.024/2023: the mandatory toll pass is bought
 * only through one). The sandbox answers through the simulated supplier (`simulado.ts`: a deterministic catalogue of
 * plazas, no regulatory effect); production, while no supplier is contracted, through `indisponivel.ts`, which
 * refuses every call with `provedor_indisponivel` (ruling 7) — it never invents a plaza, a tariff or a purchase.
 * A contracted supplier's adapter replaces either without touching the callers.
 *
 * A rejected promise means the call did not take place (nothing bought, nothing cancelled).
 */
export interface Roteiro {
  fornecedor: FornecedorValePedagio;
  distancia_km: number;
  /** In order of passage, with the tariff of the requested category. */
  pracas: PracaValePedagio[];
}

export interface PedidoCompra {
  /** Our id of the toll pass: the supplier's idempotency key (a retried purchase buys nothing twice). */
  vale_pedagio_id: string;
  pagador_cnpj: string;
  placa: string;
  tipo: TipoValePedagio;
  categoria: CategoriaVeicular;
  origem: LocalValePedagio;
  destino: LocalValePedagio;
  pracas: PracaValePedagio[];
  valor_pedagio_centavos: number;
}

export interface Compra {
  /** The purchase number (IDVPO, MDF-e `nCompra`): 1 to 20 digits. */
  numero: string;
  fornecedor: FornecedorValePedagio;
}

export interface ProvedorValePedagio {
  /** False when no supplier is contracted: every call rejects with `provedor_indisponivel`. */
  readonly disponivel: boolean;
  /** The plazas of a route for a vehicle category, with their tariffs. */
  roteirizar(pedido: { origem: LocalValePedagio; destino: LocalValePedagio; categoria: CategoriaVeicular }): Promise<Roteiro>;
  /** Buys the toll pass for the whole route; idempotent by `vale_pedagio_id`. */
  comprar(pedido: PedidoCompra): Promise<Compra>;
  /** Cancels a purchase at the supplier (the caller has checked the regulatory window); idempotent. */
  cancelar(pedido: { vale_pedagio_id: string; numero: string }): Promise<void>;
  /**
   * Sandbox only: has the supplier report that the vehicle passed a plaza, as it would on its own (a real supplier
   * reports passages through its notifications, which its adapter turns into the same `registrarPassagem`).
   */
  simularPassagem(pedido: { vale_pedagio_id: string; numero: string; praca_codigo: string }): Promise<void>;
}

/**
 * Deposits into the operational account. The sandbox credits a simulated deposit at once; production refuses with
 * `provedor_indisponivel` until a bank integration (a deposit confirmed by the bank) is contracted.
 */
export interface DepositosContaOperacional {
  readonly disponivel: boolean;
  /** How the ledger names the credit's origin. */
  readonly origem: OrigemCredito;
  confirmar(deposito: { company_id: string; referencia: string; valor_centavos: number }): Promise<void>;
}
