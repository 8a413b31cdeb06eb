import { type DomainEventOf, type EventData } from '@frete/contracts';

type Geradas = EventData<'repasse.parcelas_geradas'>;

/** `repasse.parcelas_geradas` of a group of one document (`alvo`), scanned at `bipado_em`, split into `parcelas`. */
export const parcelasGeradasDeUm = (
  alvo: Omit<Geradas, 'bipado_em' | 'documentos_no_grupo' | 'ordem_no_grupo' | 'parcelas'>,
  bipado_em: string,
  parcelas: Geradas['parcelas'],
): DomainEventOf<'repasse.parcelas_geradas'> => ({
  type: 'repasse.parcelas_geradas',
  data: { ...alvo, bipado_em, documentos_no_grupo: 1, ordem_no_grupo: 1, parcelas },
});
