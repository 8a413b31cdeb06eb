import { type AmbienteNacionalSimulado } from './ambiente-nacional';
import { type DistribuicaoDFe, type PedidoDistribuicao, type RetornoDistribuicao } from './port';

/**
 * The sandbox's distribution service: the simulated national environment consulted in process, the same
 * implementation the local authority server answers over SOAP. No channel is opened, so no certificate is compared
 * with the party (593 is the SOAP door's); every other rule (NSU order, 50 per answer, 137 and the hour's wait, 656,
 * 589, the three months) is the environment's own.
 */
export class DistribuicaoDFeSimulada implements DistribuicaoDFe {
  readonly disponivel = true;

  constructor(private readonly ambiente: AmbienteNacionalSimulado) {}

  consultar(pedido: PedidoDistribuicao): Promise<RetornoDistribuicao> {
    return this.ambiente.consultar(pedido, { documentoCertificado: null, tpAmb: this.ambiente.tpAmb });
  }
}
