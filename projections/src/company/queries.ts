import { type Sql } from '../projector';
import { umaLinha } from '../uma-linha';

/** A row of rm.companies as callers see it. */
export interface CompanyRow {
  company_id: string;
  cnpj: string;
  razao_social: string;
  carrier: boolean;
  fiscal_ready: boolean;
  fiscal_production: boolean;
}

export const COMPANY_COLUMNS = 'company_id, cnpj, razao_social, carrier, fiscal_ready, fiscal_production';

/** A company by id or by normalized CNPJ. */
export async function companyOf(sql: Sql, idOrCnpj: string, cnpj: string): Promise<CompanyRow | null> {
  return umaLinha<CompanyRow>(sql, `SELECT ${COMPANY_COLUMNS} FROM rm.companies WHERE company_id = $1 OR cnpj = $2`, [idOrCnpj, cnpj]);
}

export async function allCompanies(sql: Sql): Promise<CompanyRow[]> {
  const { rows } = await sql.query(`SELECT ${COMPANY_COLUMNS} FROM rm.companies ORDER BY registered_at, cnpj`);
  return rows as unknown as CompanyRow[];
}
