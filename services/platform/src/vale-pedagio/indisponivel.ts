import { Rejection } from '@frete/domain';
import { type Compra, type DepositosContaOperacional, type ProvedorValePedagio, type Roteiro } from './port';

/**
 * The call was not made: no toll pass supplier (or, for deposits, no bank integration) serves this deployment. The
 * edge answers it 503 `provedor_indisponivel` in the error envelope (ruling 7).
 */
export class ValePedagioIndisponivel extends Rejection {
  constructor(readonly operacao: string, quem = 'no toll pass supplier (FVPO) is contracted for this environment') {
    super('provedor_indisponivel', `${quem}: ${operacao} was not done`);
    this.name = 'ValePedagioIndisponivel';
  }
}

/** Production while no FVPO is contracted: every call rejects; nothing is ever answered on the supplier's behalf. */
export class ProvedorValePedagioIndisponivel implements ProvedorValePedagio {
  readonly disponivel = false;

  roteirizar(): Promise<Roteiro> {
    return Promise.reject(new ValePedagioIndisponivel('the routing of toll plazas'));
  }

  comprar(): Promise<Compra> {
    return Promise.reject(new ValePedagioIndisponivel('the purchase'));
  }

  cancelar(): Promise<void> {
    return Promise.reject(new ValePedagioIndisponivel('the cancellation'));
  }

  simularPassagem(): Promise<void> {
    return Promise.reject(new ValePedagioIndisponivel('the passage simulation (sandbox only)'));
  }
}

/** Production while no bank integration is contracted: deposits cannot be confirmed. */
export class DepositosIndisponiveis implements DepositosContaOperacional {
  readonly disponivel = false;
  readonly origem = 'deposito' as const;

  confirmar(): Promise<void> {
    return Promise.reject(new ValePedagioIndisponivel('the deposit', 'no bank integration is contracted for the operational account'));
  }
}
