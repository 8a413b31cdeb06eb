import { type DomainEventOf } from '@frete/contracts';
import { MAIOR_NUMERO_DOCUMENTO, numeracaoDecider, type NumeracaoState } from '../emissao/numeracao';

export type NumeracaoCteEvent = DomainEventOf<'numeracao_cte.reservada'>;

export interface ReservarNumeroCte {
  type: 'ReservarNumeroCte';
  company_id: string;
  serie: number;
  cte_id: string;
}

export type NumeracaoCteState = NumeracaoState;

/** nCT has 9 digits. */
export const MAIOR_NUMERO_CTE = MAIOR_NUMERO_DOCUMENTO;

/** One stream per company and series: its expected revision makes concurrent reservations take turns. */
export const numeracaoCteStream = (companyId: string, serie: number) => `numeracao_cte-${companyId}-${serie}`;

/** Numbers of a CT-e series (`serie_cte`), in order, with no gap and no duplicate. */
export const numeracaoCteDecider = numeracaoDecider<ReservarNumeroCte, NumeracaoCteEvent>({
  documentoDoComando: (c) => c.cte_id,
  documentoDoEvento: (e) => e.data.cte_id,
  reservada: (c, numero) => ({
    type: 'numeracao_cte.reservada',
    data: { company_id: c.company_id, serie: c.serie, numero, cte_id: c.cte_id },
  }),
  esgotada: (serie) => `series ${serie} has no number left`,
});
