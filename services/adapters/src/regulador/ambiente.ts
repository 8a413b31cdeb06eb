import { type Environment } from '@frete/contracts';
import { ReguladorTransporteIndisponivel } from './indisponivel';
import { type ReguladorTransporte } from './port';
import { ReguladorTransporteSimulado } from './simulado';

/** The regulator a deployment talks to: simulated in `homologacao`, none in `producao` until a provider is contracted (ruling 7). */
export const reguladorDoAmbiente = (environment: Environment): ReguladorTransporte =>
  environment === 'homologacao' ? new ReguladorTransporteSimulado() : new ReguladorTransporteIndisponivel();
