import { type CteLido, type RepassadoPor } from '@frete/contracts';
import { type Sql } from '../projector';
import { containsPattern, searchable, startsWithPattern } from '../search';
import { ListQuery } from '../list-query';

export interface CteSubcontratacaoRow {
  company_id: string;
  chave: string;
  status: string;
  carrier_role: string;
  allows_counter_cte: boolean;
  counter_cte_blocked_reason: string | null;
  received_count: number;
  content_updated: boolean;
  first_received_at: Date;
  last_received_at: Date;
  last_channel: string;
  delivered_by: RepassadoPor | null;
  xml_sha256: string;
  xml_size_bytes: number;
  autorizado: boolean;
  cte: CteLido;
}

export interface CteSubcontratacaoFilter {
  search?: string;
  carrier_role?: string;
  status?: string;
  /** Receipt dates, `YYYY-MM-DD`, inclusive, in Brasília time. */
  from?: string;
  to?: string;
  page: number;
  per_page: number;
  /** The list's `cursor`: the rows after the one it names (instead of `page`). */
  cursor?: string;
}

const COLUMNS = `company_id, chave, status, carrier_role, allows_counter_cte, counter_cte_blocked_reason, received_count,
  content_updated, first_received_at, last_received_at, last_channel, delivered_by, xml_sha256, xml_size_bytes, autorizado, cte`;

export async function cteSubcontratacaoOf(sql: Sql, companyId: string, chave: string): Promise<CteSubcontratacaoRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.cte_subcontratacao WHERE company_id = $1 AND chave = $2`, [companyId, chave]);
  return (rows[0] as unknown as CteSubcontratacaoRow | undefined) ?? null;
}

/** The company's inbox, newest receipt first; `search` matches the key, the issuer's CNPJ or its corporate name. */
export async function cteSubcontratacaoList(
  sql: Sql,
  companyId: string,
  f: CteSubcontratacaoFilter,
): Promise<{ rows: CteSubcontratacaoRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  if (f.search && f.search.trim() !== '') {
    const term = f.search.trim();
    const start = q.param(startsWithPattern(term.replace(/[.\-/\s]/g, '').toUpperCase()));
    const name = q.param(containsPattern(searchable(term)));
    q.and(`(chave LIKE ${start} OR emitente_cnpj LIKE ${start} OR emitente_busca LIKE ${name})`);
  }
  if (f.carrier_role) q.and(`carrier_role = ${q.param(f.carrier_role)}`);
  if (f.status) q.and(`status = ${q.param(f.status)}`);
  q.days('first_received_at', f.from, f.to);
  return q.keysetPage<CteSubcontratacaoRow>(sql, {
    from: 'rm.cte_subcontratacao',
    columns: COLUMNS,
    list: 'cte-subcontratacao',
    keys: [
      { expr: 'first_received_at', dir: 'DESC', type: 'timestamptz' },
      { expr: 'chave', dir: 'ASC', type: 'text' },
    ],
    cursor: f.cursor,
    page: f.page,
    per_page: f.per_page,
  });
}
