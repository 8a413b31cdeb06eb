import { type CteLido, type RepassadoPor } from '@frete/contracts';
import { type Sql } from '../projector';
import { containsPattern, searchable } from '../search';

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
}

const COLUMNS = `company_id, chave, status, carrier_role, allows_counter_cte, counter_cte_blocked_reason, received_count,
  content_updated, first_received_at, last_received_at, last_channel, delivered_by, xml_sha256, xml_size_bytes, autorizado, cte`;

export async function cteSubcontratacaoOf(sql: Sql, companyId: string, chave: string): Promise<CteSubcontratacaoRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.cte_subcontratacao WHERE company_id = $1 AND chave = $2`, [companyId, chave]);
  return (rows[0] as unknown as CteSubcontratacaoRow | undefined) ?? null;
}

/** The company's inbox, newest receipt first; `search` matches the key, the issuer's CNPJ or its corporate name. */
export async function cteSubcontratacaoList(sql: Sql, companyId: string, f: CteSubcontratacaoFilter): Promise<{ rows: CteSubcontratacaoRow[]; total: number }> {
  const where = ['company_id = $1'];
  const params: unknown[] = [companyId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (f.search && f.search.trim() !== '') {
    const term = f.search.trim();
    const compact = term.replace(/[.\-/\s]/g, '').toUpperCase();
    params.push(`${compact}%`, containsPattern(searchable(term)));
    const a = `$${params.length - 1}`;
    const b = `$${params.length}`;
    where.push(`(chave LIKE ${a} OR emitente_cnpj LIKE ${a} OR emitente_busca LIKE ${b})`);
  }
  if (f.carrier_role) add((n) => `carrier_role = ${n}`, f.carrier_role);
  if (f.status) add((n) => `status = ${n}`, f.status);
  if (f.from) add((n) => `first_received_at >= (${n} || 'T00:00:00-03:00')::timestamptz`, f.from);
  if (f.to) add((n) => `first_received_at < ((${n}::date + 1)::text || 'T00:00:00-03:00')::timestamptz`, f.to);
  const filter = where.join(' AND ');
  const total = await sql.query(`SELECT count(*)::int AS n FROM rm.cte_subcontratacao WHERE ${filter}`, params);
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM rm.cte_subcontratacao WHERE ${filter}
      ORDER BY first_received_at DESC, chave LIMIT ${f.per_page} OFFSET ${(f.page - 1) * f.per_page}`,
    params,
  );
  return { rows: rows as unknown as CteSubcontratacaoRow[], total: total.rows[0]!.n as number };
}
