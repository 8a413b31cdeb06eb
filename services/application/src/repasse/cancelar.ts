import { type EventData, type RecordedEvent } from '@frete/contracts';
import { grupoDoVinculo, repasseDecider, repasseStream } from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { execute } from '../commands/execute';
import { type PayoutDeps, contextoDo } from './deps';
import { vinculoDoCte } from './contra-cte';

/** tpEvento 110111: the CT-e's cancellation, registered by the authority. */
const CANCELAMENTO = '110111';

/** A registered cancellation of a counter-CT-e cancels its unpaid installments and takes it out of its group. */
export const cancelarDocumento =
  (deps: PayoutDeps) =>
  async (event: RecordedEvent): Promise<void> => {
    const d = event.data as EventData<'cte.evento_registrado'>;
    if (d.tp_evento !== CANCELAMENTO) return;
    const vinculo = await vinculoDoCte(deps.store, d.cte_id);
    if (!vinculo) return;
    const grupo = grupoDoVinculo(d.cte_id, vinculo);
    await execute(
      deps,
      repasseStream(d.company_id, grupo),
      repasseDecider,
      { type: 'CancelarDocumento', company_id: d.company_id, grupo, cte_id: d.cte_id },
      contextoDo(deps, event, d.company_id),
      {
        eventId: (i, e) => derivedEventId(event.id, `${e.type}:${i}`),
        cache: deps.grupos,
      },
    );
  };
