import { type Pool } from 'pg';
import { type ContratanteEncontrada } from '@frete/domain';
import { companyOf } from '@frete/projections';

/** What the grants' handler reads besides the log: the contractor a CNPJ names among the product's companies. */
export interface LeiturasAutorizacao {
  /** The company registered with this normalized CNPJ (carrier or not: the decider judges); null when none. */
  empresaPorCnpj(cnpj: string): Promise<ContratanteEncontrada | null>;
}

/** The lookup over the companies read model in PostgreSQL. */
export const leiturasAutorizacaoDoPool = (pool: Pool): LeiturasAutorizacao => ({
  empresaPorCnpj: async (cnpj) => {
    const found = await companyOf(pool, cnpj, cnpj);
    return found && { company_id: found.company_id, cnpj: found.cnpj, nome: found.razao_social, carrier: found.carrier };
  },
});
