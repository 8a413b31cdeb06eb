import { type BloqueioContraCte, type EventData, type RecusaContraCteLida } from '@frete/contracts';
import { recusaDoBloqueio } from '@frete/domain';

/**
 * What a receipt says a counter-CT-e of its CT-e would be refused with. A receipt recorded before issue 28 has no
 * refusal of its own: its blocking reason gives it, in the words a batch row used for that reason.
 */
export function recusaDoRecebimento(
  d: Pick<EventData<'cte_subcontratacao.recebido'>, 'chave' | 'bloqueio_contra_cte' | 'recusa_contra_cte'>,
): RecusaContraCteLida | null {
  if (d.recusa_contra_cte !== undefined) return d.recusa_contra_cte;
  if (!d.bloqueio_contra_cte) return null;
  const { code, message } = recusaDoBloqueio(d.bloqueio_contra_cte as BloqueioContraCte, d.chave);
  return { code, message };
}
