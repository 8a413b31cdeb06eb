import { ProcessadorDistribuicao } from '@frete/application';
import { type Processor } from '@frete/platform';

/**
 * Consults the national distribution (Ambiente Nacional) for each company: its own processor, so that under Kafka it
 * is a consumer group of its own, and a slow national service holds neither emission nor payout. It follows the
 * `distribuicao` streams' requests; its schedule (`AgendaDistribuicao`, started beside it) asks them. Events of one
 * company's stream are handled in order, one at a time (the transports' default key): one consultation per company at
 * a time, as the service expects.
 */
export function distribuicaoProcessor(processador: ProcessadorDistribuicao): Processor {
  const tipos = new Set<string>(ProcessadorDistribuicao.EVENTOS);
  return {
    name: 'distribuicao',
    handles: (type) => tipos.has(type),
    handle: (event) => processador.aoEvento(event),
  };
}
