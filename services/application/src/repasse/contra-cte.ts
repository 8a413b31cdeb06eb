import { type ContraCteVinculo } from '@frete/contracts';
import { cteStream } from '@frete/domain';
import { type EventStore } from '@frete/platform';

/**
 * The link of a counter-CT-e, as this process knows it (`conhecido`, see `EmissorCte.vinculoConhecido`) or read from
 * its own history; null for any other CT-e.
 */
export async function vinculoDoCte(
  store: EventStore,
  cteId: string,
  conhecido?: (cteId: string) => ContraCteVinculo | null | undefined,
): Promise<ContraCteVinculo | null> {
  const sabido = conhecido?.(cteId);
  if (sabido !== undefined) return sabido;
  const history = await store.readStream(cteStream(cteId));
  const criado = history.find((e) => e.type === 'cte.contra_cte_criado');
  return criado ? (criado.data as { vinculo: ContraCteVinculo }).vinculo : null;
}
