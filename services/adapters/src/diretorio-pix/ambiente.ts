import { type Environment } from '@frete/contracts';
import { DiretorioPixIndisponivel } from './indisponivel';
import { type DiretorioPix } from './port';
import { DiretorioPixSimulado } from './simulado';

/** The PIX directory a deployment talks to: simulated in `homologacao`, none in `producao` until a provider is contracted (ruling 7). */
export const diretorioPixDoAmbiente = (environment: Environment): DiretorioPix =>
  environment === 'homologacao' ? new DiretorioPixSimulado() : new DiretorioPixIndisponivel();
