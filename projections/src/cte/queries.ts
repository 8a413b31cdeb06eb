import { type ContraCteVinculo, type CteLido, type CteRascunho, type CteSituation } from '@frete/contracts';
import { type Sql } from '../projector';
import { ListQuery } from '../list-query';

export interface CteRow {
  cte_id: string;
  company_id: string;
  chave: string | null;
  origem: string;
  situacao: CteSituation;
  service_type: number;
  xml_sha256: string | null;
  xml_size_bytes: number | null;
  received_count: number;
  handoffs: number;
  cte: CteLido | null;
  dados: CteRascunho | null;
  /** The link of a counter-CT-e to the contractor's CT-e, its batch row and driver. */
  contra_cte: ContraCteVinculo | null;
  serie: number | null;
  numero: string | null;
  retorno: { cstat: number | null; motivo: string } | null;
  created_at: Date;
  updated_at: Date;
}

export interface CteFilter {
  status?: string;
  /** Issue dates (`dhEmi`; a draft's creation), `YYYY-MM-DD`, inclusive, in Brasília time. */
  from?: string;
  to?: string;
  page: number;
  per_page: number;
  /** The list's `cursor`: the rows after the one it names (instead of `page`). */
  cursor?: string;
}

const COLUMNS =
  'cte_id, company_id, chave, origem, situacao, service_type, xml_sha256, xml_size_bytes, received_count, handoffs, cte, dados, contra_cte, serie, numero, retorno, created_at, updated_at';

/** One own CT-e of the company, by id; another company's is not found. */
export async function cteOf(sql: Sql, companyId: string, cteId: string): Promise<CteRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.ctes WHERE company_id = $1 AND cte_id = $2`, [companyId, cteId]);
  return (rows[0] as unknown as CteRow | undefined) ?? null;
}

export async function cteByKey(sql: Sql, companyId: string, chave: string): Promise<CteRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.ctes WHERE company_id = $1 AND chave = $2`, [companyId, chave]);
  return (rows[0] as unknown as CteRow | undefined) ?? null;
}

/** Own CT-e, newest first. */
export async function cteList(
  sql: Sql,
  companyId: string,
  f: CteFilter,
): Promise<{ rows: CteRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  if (f.status) q.and(`situacao = ${q.param(f.status)}`);
  q.days('COALESCE(emitido_em, created_at)', f.from, f.to);
  return q.keysetPage<CteRow>(sql, {
    from: 'rm.ctes',
    columns: COLUMNS,
    list: 'cte',
    keys: [
      { expr: 'created_at', dir: 'DESC', type: 'timestamptz' },
      { expr: 'cte_id', dir: 'ASC', type: 'text' },
    ],
    cursor: f.cursor,
    page: f.page,
    per_page: f.per_page,
  });
}
