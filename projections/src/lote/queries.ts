import { type LinhaLoteStatus, type LoteStatus, type ModoSubcontratacao } from '@frete/contracts';
import { type Sql } from '../projector';
import { ListQuery, type PageRequest } from '../list-query';
import { newestFirst } from '../list-cursor';
import { type ContagemLote } from './progresso';

export interface LoteRow {
  batch_id: string;
  company_id: string;
  solicitante_company_id: string | null;
  modo: ModoSubcontratacao;
  total_linhas: number;
  status: LoteStatus;
  created_at: Date;
  concluido_em: Date | null;
  subcontratada_cnpj: string;
  subcontratada_nome: string;
  solicitante_cnpj: string | null;
  solicitante_nome: string | null;
}

export interface LoteLinhaRow {
  linha: number;
  chave: string;
  perna: number | null;
  status: LinhaLoteStatus;
  tipo_servico: number;
  counter_cte_id: string | null;
  documento_financeiro: string | null;
  financeiro: 'ok' | 'failed' | null;
  error_code: string | null;
  error_message: string | null;
  /** When the row last changed (written, or followed its counter-CT-e): the progress estimate's timing. */
  updated_at: Date;
}

/** A batch's rows counted by status, in SQL: the progress of a report or a list never reads the rows themselves. */
const CONTAGEM = `LEFT JOIN LATERAL (
         SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'emitted')::int AS emitted,
                count(*) FILTER (WHERE status = 'duplicated')::int AS duplicated, count(*) FILTER (WHERE status = 'failed')::int AS failed,
                max(updated_at) FILTER (WHERE status <> 'pending') AS ultima_final
           FROM rm.lote_linhas WHERE batch_id = l.batch_id
       ) c ON true`;

const CABECALHO = `l.batch_id, l.company_id, l.solicitante_company_id, l.modo, l.total_linhas, l.status, l.created_at, l.concluido_em,
              s.cnpj AS subcontratada_cnpj, s.razao_social AS subcontratada_nome, r.cnpj AS solicitante_cnpj, r.razao_social AS solicitante_nome,
              c.pending, c.emitted, c.duplicated, c.failed, c.ultima_final`;

const DAS_EMPRESAS = `rm.lotes l
       JOIN rm.companies s ON s.company_id = l.company_id
       LEFT JOIN rm.companies r ON r.company_id = l.solicitante_company_id
       ${CONTAGEM}`;

function comContagem(r: Record<string, unknown>): LoteResumoRow {
  const { pending, emitted, duplicated, failed, ultima_final, ...lote } = r;
  return {
    ...(lote as unknown as LoteRow),
    contagem: {
      pending: pending as number,
      emitted: emitted as number,
      duplicated: duplicated as number,
      failed: failed as number,
      ultima_final: (ultima_final as Date | null) ?? null,
    },
  };
}

/** Which of a batch's rows a report carries: from the row `desde` (0-based, in the batch's order), at most `limite` (all: null). */
export interface FaixaDeLinhas {
  desde: number;
  limite: number | null;
}

/**
 * A batch as one of its two parties sees it: the subcontractor that owns it or the contractor that requested it.
 * Anyone else gets null, like a batch that does not exist. Its rows counted, and those of `faixa` (by default all): a
 * client following a running batch asks for the rows after the last it has, at a cost that does not grow with the
 * rows already written.
 */
export async function loteDe(
  sql: Sql,
  batchId: string,
  companyId: string,
  faixa: FaixaDeLinhas = { desde: 0, limite: null },
): Promise<{ lote: LoteResumoRow; linhas: LoteLinhaRow[] } | null> {
  const { rows } = await sql.query(
    `SELECT ${CABECALHO} FROM ${DAS_EMPRESAS} WHERE l.batch_id = $1 AND (l.company_id = $2 OR l.solicitante_company_id = $2)`,
    [batchId, companyId],
  );
  if (!rows[0]) return null;
  const linhas = await sql.query(
    `SELECT linha, chave, perna, status, tipo_servico, counter_cte_id, documento_financeiro, financeiro, error_code, error_message,
            updated_at
       FROM rm.lote_linhas WHERE batch_id = $1 AND linha >= $2 ORDER BY linha LIMIT $3`,
    [batchId, faixa.desde, faixa.limite],
  );
  return { lote: comContagem(rows[0]), linhas: linhas.rows as unknown as LoteLinhaRow[] };
}

/** Which of these CPFs and plates are active in the company's registry (the batch's pre-creation check, rule 8). */
export async function registroDeFrota(
  sql: Sql,
  companyId: string,
  cpfs: string[],
  placas: string[],
): Promise<{ motoristas: Set<string>; placas: Set<string> }> {
  const [m, v] = await Promise.all([
    sql.query(`SELECT cpf FROM rm.motoristas WHERE company_id = $1 AND cpf = ANY($2::text[]) AND removido_em IS NULL`, [companyId, cpfs]),
    sql.query(`SELECT placa FROM rm.veiculos WHERE company_id = $1 AND placa = ANY($2::text[]) AND removido_em IS NULL`, [
      companyId,
      placas,
    ]),
  ]);
  return { motoristas: new Set(m.rows.map((r) => r.cpf as string)), placas: new Set(v.rows.map((r) => r.placa as string)) };
}

/** A batch in the list: its header and its rows counted (never the rows themselves). */
export type LoteResumoRow = LoteRow & { contagem: ContagemLote };

/** The batches a company owns or requested, newest first; `status`, `from`/`to` (creation day) filter. */
export async function lotesList(
  sql: Sql,
  companyId: string,
  f: PageRequest & { status?: string; from?: string; to?: string },
): Promise<{ rows: LoteResumoRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery(['l.company_id', 'l.solicitante_company_id'], companyId);
  if (f.status) q.and(`l.status = ${q.param(f.status)}`);
  q.days('l.created_at', f.from, f.to);
  const { rows, total, next_cursor } = await q.keysetPage<Record<string, unknown>>(
    sql,
    {
      list: 'lotes',
      countFrom: 'rm.lotes l',
      from: DAS_EMPRESAS,
      columns: CABECALHO,
      keys: newestFirst('l.created_at', 'l.batch_id'),
    },
    f,
  );
  return { rows: rows.map(comContagem), total, next_cursor };
}

/**
 * Every batch row of the read model counted by status, of all companies (the `frete_lote_linhas` gauge, read at each
 * scrape). One grouped scan of `rm.lote_linhas`, no company: an operator's figure, not a client's.
 */
export async function linhasDeLotePorStatus(sql: Sql): Promise<{ status: LinhaLoteStatus; linhas: number }[]> {
  const { rows } = await sql.query(`SELECT status, count(*)::int AS linhas FROM rm.lote_linhas GROUP BY status ORDER BY status`);
  return rows as { status: LinhaLoteStatus; linhas: number }[];
}
