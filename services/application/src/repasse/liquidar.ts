import { type EventData, type RecordedEvent } from '@frete/contracts';
import { repasseDecider, repasseStream } from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { execute } from '../commands/execute';
import { type PayoutDeps, contextoDo } from './deps';

/** A payment order goes to the rail; once it settles, the installment is paid. */
export const liquidarPagamento =
  (deps: PayoutDeps) =>
  async (event: RecordedEvent): Promise<void> => {
    const d = event.data as EventData<'repasse.pagamento_solicitado'>;
    await deps.rail.liquidar({
      company_id: d.company_id,
      ordem_id: d.ordem_id,
      motorista_cpf: d.motorista_cpf,
      valor_centavos: d.valor_centavos,
    });
    await execute(
      deps,
      repasseStream(d.company_id, d.grupo),
      repasseDecider,
      {
        type: 'LiquidarPagamento',
        company_id: d.company_id,
        grupo: d.grupo,
        cte_id: d.cte_id,
        posicao: d.posicao,
        ordem_id: d.ordem_id,
      },
      contextoDo(deps, event, d.company_id),
      { eventId: (i, e) => derivedEventId(event.id, `${e.type}:${i}`), cache: deps.grupos },
    );
  };
