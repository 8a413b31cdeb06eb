/** A payment order as the rail sees it. */
export interface OrdemDePagamento {
  company_id: string;
  ordem_id: string;
  motorista_cpf: string;
  valor_centavos: number;
}

/**
 * The payment rail: settles an order or fails (throws), in which case the processor retries from its checkpoint.
 * Must be idempotent by `ordem_id`: a redelivered order is settled once.
 */
export interface RailDePagamento {
  liquidar(ordem: OrdemDePagamento): Promise<void>;
}

/**
 * In this product the payout rail is internal: an order settles as soon as it is taken. A real PIX rail replaces
 * this object and nothing else.
 */
export const railInterno: RailDePagamento = {
  async liquidar() {
    return undefined;
  },
};
