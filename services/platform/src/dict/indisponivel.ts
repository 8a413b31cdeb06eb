import { Rejection } from '@frete/domain';
import { type ChavePixEncontrada, type DiretorioPix } from './port';

/** The lookup was not made: no PIX directory provider serves this deployment (503 `provedor_indisponivel`). */
export class DictIndisponivel extends Rejection {
  constructor() {
    super('provedor_indisponivel', 'no PIX directory (DICT) provider is contracted for this environment: the key was not looked up');
    this.name = 'DictIndisponivel';
  }
}

/** Production while no provider is contracted (ruling 7): every lookup rejects; no invented holder. */
export class DiretorioPixIndisponivel implements DiretorioPix {
  readonly disponivel = false;

  consultarChave(): Promise<ChavePixEncontrada | null> {
    return Promise.reject(new DictIndisponivel());
  }
}
