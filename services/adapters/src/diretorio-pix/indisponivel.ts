import { ProvedorIndisponivel } from '../provedor-indisponivel';
import { type ChavePixEncontrada, type DiretorioPix } from './port';

/** Production while no provider is contracted (ruling 7): every lookup rejects; no invented holder. */
export class DiretorioPixIndisponivel implements DiretorioPix {
  readonly disponivel = false;

  consultarChave(): Promise<ChavePixEncontrada | null> {
    return Promise.reject(new ProvedorIndisponivel('PIX directory (DICT) provider', 'the key lookup'));
  }
}
