import { type ItemFrota, type SituacaoRntrc } from '@frete/contracts';
import { Rejection } from '@frete/domain';
import { type ReguladorTransporte } from './port';

/** The query was not made: no regulator provider serves this deployment (503 `provedor_indisponivel`). */
export class ReguladorIndisponivel extends Rejection {
  constructor(readonly operacao: string) {
    super('provedor_indisponivel', 'no road-transport regulator (ANTT) provider is contracted for this environment: the query was not made');
    this.name = 'ReguladorIndisponivel';
  }
}

/** Production while no provider is contracted (ruling 7): every query rejects; no invented data. */
export class ReguladorTransporteIndisponivel implements ReguladorTransporte {
  readonly disponivel = false;

  consultarRntrc(): Promise<SituacaoRntrc> {
    return Promise.reject(new ReguladorIndisponivel('consultarRntrc'));
  }

  consultarFrota(): Promise<ItemFrota[]> {
    return Promise.reject(new ReguladorIndisponivel('consultarFrota'));
  }
}
