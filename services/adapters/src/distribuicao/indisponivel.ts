import { ProvedorIndisponivel } from '../provedor-indisponivel';
import { type DistribuicaoDFe, type RetornoDistribuicao } from './port';

/**
 * Production without a fiscal authority (ruling 7): no distribution service is reachable. `disponivel` is false, so
 * the poller consults nothing; a call anyway rejects with `ProvedorIndisponivel`, and nothing is answered on the
 * national environment's behalf.
 */
export class DistribuicaoDFeIndisponivel implements DistribuicaoDFe {
  readonly disponivel = false;

  consultar(): Promise<RetornoDistribuicao> {
    return Promise.reject(new ProvedorIndisponivel('national distribution service', 'consultar'));
  }
}
