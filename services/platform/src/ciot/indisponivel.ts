import { type DeclaracaoCiotDados } from '@frete/contracts';
import { Rejection } from '@frete/domain';
import {
  type CiotRegistradoNoProvedor, type PedidoDeclaracaoCiot, type ProvedorCiot, type RetornoDeclaracaoCiot, type RetornoOperacaoCiot,
} from './port';

/** The call was not made: no CIOT provider (IPEF) serves this deployment. The edge answers 503 `provedor_indisponivel`. */
export class ProvedorCiotIndisponivel extends Rejection {
  constructor(readonly operacao: string) {
    super('provedor_indisponivel', 'no CIOT provider (IPEF) is contracted for this environment: the operation was not sent');
    this.name = 'ProvedorCiotIndisponivel';
  }
}

/**
 * Production while no CIOT provider is contracted (ruling 7): every call rejects; it never answers on a provider's
 * behalf (no CIOT number, no protocol, no invented data). Declarations never get here: with `disponivel` false they
 * are recorded as `bloqueado` (422 `declaracao_bloqueada`).
 */
export class ProvedorCiotIndisponivelAdapter implements ProvedorCiot {
  readonly disponivel = false;

  declarar(_pedido: PedidoDeclaracaoCiot): Promise<RetornoDeclaracaoCiot> {
    return Promise.reject(new ProvedorCiotIndisponivel('declarar'));
  }

  consultarDeclaracao(_pedido: PedidoDeclaracaoCiot, _protocolo: string | null): Promise<RetornoDeclaracaoCiot> {
    return Promise.reject(new ProvedorCiotIndisponivel('consultarDeclaracao'));
  }

  cancelar(_ciot: CiotRegistradoNoProvedor, _justificativa: string): Promise<RetornoOperacaoCiot> {
    return Promise.reject(new ProvedorCiotIndisponivel('cancelar'));
  }

  retificar(_ciot: CiotRegistradoNoProvedor, _declaracao: DeclaracaoCiotDados): Promise<RetornoOperacaoCiot> {
    return Promise.reject(new ProvedorCiotIndisponivel('retificar'));
  }

  encerrar(_ciot: CiotRegistradoNoProvedor, _peso: number | null): Promise<RetornoOperacaoCiot> {
    return Promise.reject(new ProvedorCiotIndisponivel('encerrar'));
  }
}
