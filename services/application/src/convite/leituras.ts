import { type Pool } from 'pg';
import { companyOf } from '@frete/projections';

/** What the invitations' handler reads besides the log: whether the invited CNPJ is already a carrier customer. */
export interface LeiturasConvite {
  /** True when a company registered with this normalized CNPJ is a carrier (a shipper may still be invited). */
  transportadoraCadastrada(cnpj: string): Promise<boolean>;
}

/** The lookup over the companies read model in PostgreSQL. */
export const leiturasConviteDoPool = (pool: Pool): LeiturasConvite => ({
  transportadoraCadastrada: async (cnpj) => (await companyOf(pool, cnpj, cnpj))?.carrier === true,
});
