import { type Environment } from '@frete/contracts';
import { AutoridadeFiscalIndisponivel } from './indisponivel';
import { type AutoridadeFiscal } from './port';
import { AutoridadeFiscalSimulada, type AutoridadeSimuladaOptions } from './simulada';

/**
 * The authority a deployment talks to: the simulated one in `homologacao` (ruling 12), none in `producao` while no
 * provider is contracted (ruling 7: every call rejects with `provedor_indisponivel`). A provider's adapter goes here.
 */
export function autoridadeFiscalDoAmbiente(
  environment: Environment,
  options: AutoridadeSimuladaOptions,
): AutoridadeFiscal & { close(): Promise<void> } {
  if (environment === 'homologacao') return new AutoridadeFiscalSimulada(options);
  const indisponivel = new AutoridadeFiscalIndisponivel();
  return Object.assign(indisponivel, { close: () => Promise.resolve() });
}
