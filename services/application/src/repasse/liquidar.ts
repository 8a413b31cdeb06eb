import { type EventData, type RecordedEvent } from '@frete/contracts';
import { type RepasseCommand, repasseDecider, repasseStream } from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { execute } from '../commands/execute';
import { type PayoutDeps, contextoDo } from './deps';

/**
 * A payment order goes to the rail only once its group has decided to hand it over (`repasse.pagamento_enviado`):
 * a cancellation decided first has withdrawn it, and then no money moves. Once settled, the installment is paid.
 * A redelivery finds the order handed over already and asks the rail again, which settles an order once.
 */
export const liquidarPagamento =
  (deps: PayoutDeps) =>
  async (event: RecordedEvent): Promise<void> => {
    const d = event.data as EventData<'repasse.pagamento_solicitado'>;
    const stream = repasseStream(d.company_id, d.grupo);
    const ctx = contextoDo(deps, event, d.company_id);
    const options = { eventId: (i: number, e: { type: string }) => derivedEventId(event.id, `${e.type}:${i}`), cache: deps.grupos };
    const ordem = { company_id: d.company_id, grupo: d.grupo, cte_id: d.cte_id, posicao: d.posicao, ordem_id: d.ordem_id };
    const run = (command: RepasseCommand) => execute(deps, stream, repasseDecider, command, ctx, options);

    const { state } = await run({ type: 'EnviarPagamento', ...ordem });
    const parcela = state.documentos[d.cte_id]?.parcelas?.find((p) => p.posicao === d.posicao);
    if (!parcela || parcela.ordem_id !== d.ordem_id || parcela.situacao !== 'pagamento_solicitado' || !parcela.enviada) return;
    await deps.rail.liquidar({
      company_id: d.company_id,
      ordem_id: d.ordem_id,
      motorista_cpf: d.motorista_cpf,
      valor_centavos: d.valor_centavos,
    });
    await run({ type: 'LiquidarPagamento', ...ordem });
  };
