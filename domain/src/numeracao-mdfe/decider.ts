import { type DomainEventOf } from '@frete/contracts';
import { MAIOR_NUMERO_DOCUMENTO, numeracaoDecider, type NumeracaoState } from '../emissao/numeracao';

export type NumeracaoMdfeEvent = DomainEventOf<'numeracao_mdfe.reservada'>;

export interface ReservarNumeroMdfe {
  type: 'ReservarNumeroMdfe';
  company_id: string;
  serie: number;
  mdfe_id: string;
}

export type NumeracaoMdfeState = NumeracaoState;

/** nMDF has 9 digits. */
export const MAIOR_NUMERO_MDFE = MAIOR_NUMERO_DOCUMENTO;

/** One stream per company and MDF-e series (`serie_mdfe`). */
export const numeracaoMdfeStream = (companyId: string, serie: number) => `numeracao_mdfe-${companyId}-${serie}`;

/** Numbers of an MDF-e series in order, with no gap and no duplicate; an MDF-e keeps its number through retries. */
export const numeracaoMdfeDecider = numeracaoDecider<ReservarNumeroMdfe, NumeracaoMdfeEvent>({
  documentoDoComando: (c) => c.mdfe_id,
  documentoDoEvento: (e) => e.data.mdfe_id,
  reservada: (c, numero) => ({
    type: 'numeracao_mdfe.reservada',
    data: { company_id: c.company_id, serie: c.serie, numero, mdfe_id: c.mdfe_id },
  }),
  esgotada: (serie) => `MDF-e series ${serie} has no number left`,
});
