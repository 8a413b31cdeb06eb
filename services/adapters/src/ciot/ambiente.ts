import { type Environment } from '@frete/contracts';
import { ProvedorCiotIndisponivel } from './indisponivel';
import { type ProvedorCiot } from './port';
import { ProvedorCiotSimulado } from './simulado';

/** The CIOT provider of a deployment: simulated in `homologacao`, none in `producao` until an IPEF is contracted (ruling 7). */
export function provedorCiotDoAmbiente(environment: Environment, options: { clock?: () => Date } = {}): ProvedorCiot {
  return environment === 'homologacao' ? new ProvedorCiotSimulado(options) : new ProvedorCiotIndisponivel();
}
