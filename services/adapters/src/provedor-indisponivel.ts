import { Rejection } from '@frete/domain';

/**
 * The call was not made: no provider of that kind (fiscal authority, CIOT IPEF, regulator, PIX directory, toll
 * supplier, bank) serves this deployment. A `Rejection` with code `provedor_indisponivel`, which the edge answers
 * with 503 in the error envelope (ruling 7). Nothing was sent, and nothing is ever answered on a provider's behalf.
 */
export class ProvedorIndisponivel extends Rejection {
  constructor(
    readonly provedor: string,
    readonly operacao: string,
  ) {
    super('provedor_indisponivel', `no ${provedor} is contracted for this environment: ${operacao} was not done`);
    this.name = 'ProvedorIndisponivel';
  }
}
