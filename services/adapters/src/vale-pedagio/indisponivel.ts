import { ProvedorIndisponivel } from '../provedor-indisponivel';
import { type Compra, type DepositosContaOperacional, type ProvedorValePedagio, type Roteiro } from './port';

/** Production while no FVPO is contracted: every call rejects; nothing is ever answered on the supplier's behalf. */
export class ProvedorValePedagioIndisponivel implements ProvedorValePedagio {
  readonly disponivel = false;

  roteirizar(): Promise<Roteiro> {
    return Promise.reject(new ProvedorIndisponivel('toll pass supplier (FVPO)', 'the routing of toll plazas'));
  }

  comprar(): Promise<Compra> {
    return Promise.reject(new ProvedorIndisponivel('toll pass supplier (FVPO)', 'the purchase'));
  }

  cancelar(): Promise<void> {
    return Promise.reject(new ProvedorIndisponivel('toll pass supplier (FVPO)', 'the cancellation'));
  }

  simularPassagem(): Promise<void> {
    return Promise.reject(new ProvedorIndisponivel('toll pass supplier (FVPO)', 'the passage simulation (sandbox only)'));
  }
}

/** Production while no bank integration is contracted: deposits cannot be confirmed. */
export class DepositosIndisponiveis implements DepositosContaOperacional {
  readonly disponivel = false;
  readonly origem = 'deposito' as const;

  confirmar(): Promise<void> {
    return Promise.reject(new ProvedorIndisponivel('bank integration for the operational account', 'the deposit'));
  }
}
