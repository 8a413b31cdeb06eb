import { type DeclaracaoCiotDados } from '@frete/contracts';
import { ProvedorIndisponivel } from '../provedor-indisponivel';
import {
  type CiotRegistradoNoProvedor,
  type PedidoDeclaracaoCiot,
  type ProvedorCiot,
  type RetornoDeclaracaoCiot,
  type RetornoOperacaoCiot,
} from './port';

/**
 * Production while no CIOT provider is contracted (ruling 7): every call rejects; it never answers on a provider's
 * behalf (no CIOT number, no protocol, no invented data). Declarations never get here: with `disponivel` false they
 * are recorded as `bloqueado` (422 `declaracao_bloqueada`).
 */
export class ProvedorCiotIndisponivel implements ProvedorCiot {
  readonly disponivel = false;

  declarar(_pedido: PedidoDeclaracaoCiot): Promise<RetornoDeclaracaoCiot> {
    return Promise.reject(new ProvedorIndisponivel('CIOT provider (IPEF)', 'declarar'));
  }

  consultarDeclaracao(_pedido: PedidoDeclaracaoCiot, _protocolo: string | null): Promise<RetornoDeclaracaoCiot> {
    return Promise.reject(new ProvedorIndisponivel('CIOT provider (IPEF)', 'consultarDeclaracao'));
  }

  cancelar(_ciot: CiotRegistradoNoProvedor, _justificativa: string): Promise<RetornoOperacaoCiot> {
    return Promise.reject(new ProvedorIndisponivel('CIOT provider (IPEF)', 'cancelar'));
  }

  retificar(_ciot: CiotRegistradoNoProvedor, _declaracao: DeclaracaoCiotDados): Promise<RetornoOperacaoCiot> {
    return Promise.reject(new ProvedorIndisponivel('CIOT provider (IPEF)', 'retificar'));
  }

  encerrar(_ciot: CiotRegistradoNoProvedor, _peso: number | null): Promise<RetornoOperacaoCiot> {
    return Promise.reject(new ProvedorIndisponivel('CIOT provider (IPEF)', 'encerrar'));
  }
}
