import { type ItemFrota, type SituacaoRntrc } from '@frete/contracts';
import { ProvedorIndisponivel } from '../provedor-indisponivel';
import { type ReguladorTransporte } from './port';

/** Production while no provider is contracted (ruling 7): every query rejects; no invented data. */
export class ReguladorTransporteIndisponivel implements ReguladorTransporte {
  readonly disponivel = false;

  consultarRntrc(): Promise<SituacaoRntrc> {
    return Promise.reject(new ProvedorIndisponivel('road-transport regulator (ANTT) provider', 'consultarRntrc'));
  }

  consultarFrota(): Promise<ItemFrota[]> {
    return Promise.reject(new ProvedorIndisponivel('road-transport regulator (ANTT) provider', 'consultarFrota'));
  }
}
