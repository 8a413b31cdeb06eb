import { type CiotStatus, type DeclaracaoCiotDados } from '@frete/contracts';
import { type Sql } from '../projector';
import { ListQuery, type PageRequest } from '../list-query';
import { newestFirst } from '../list-cursor';
import { umaLinha } from '../uma-linha';

export interface CiotRow {
  ciot_id: string;
  company_id: string;
  ambiente: string;
  origem: 'declaracao' | 'cte';
  cte_id: string | null;
  cte_chave: string | null;
  cte_sequencia: number | null;
  referencia_externa: string | null;
  status: CiotStatus;
  ciot: string | null;
  codigo_verificacao: string | null;
  protocolo: string | null;
  motivo_codigo: string | null;
  motivo: string | null;
  declaracao: DeclaracaoCiotDados;
  registrado_em: Date | null;
  viagem_iniciada_em: Date | null;
  retificacoes: number;
  cancelado_em: Date | null;
  justificativa_cancelamento: string | null;
  encerrado_em: Date | null;
  peso_entregue_gramas: string | null;
  historico: { evento: string; em: string; protocolo: string | null; motivo: string | null }[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `ciot_id, company_id, ambiente, origem, cte_id, cte_chave, cte_sequencia, referencia_externa, status, ciot, codigo_verificacao,
  protocolo, motivo_codigo, motivo, declaracao, registrado_em, viagem_iniciada_em, retificacoes, cancelado_em, justificativa_cancelamento,
  encerrado_em, peso_entregue_gramas, historico, created_at, updated_at`;

/** One CIOT operation of the company; another company's is not found. */
export async function ciotOf(sql: Sql, companyId: string, ciotId: string): Promise<CiotRow | null> {
  return umaLinha<CiotRow>(sql, `SELECT ${COLUMNS} FROM rm.ciots WHERE company_id = $1 AND ciot_id = $2`, [companyId, ciotId]);
}

/** The CIOT operations anchored on an own CT-e, the latest (highest sequence) first. */
export async function ciotsDoCte(sql: Sql, companyId: string, cteId: string): Promise<CiotRow[]> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.ciots WHERE company_id = $1 AND cte_id = $2 ORDER BY cte_sequencia DESC`, [
    companyId,
    cteId,
  ]);
  return rows as unknown as CiotRow[];
}

/** An MDF-e authorized (or already closed) that carries the CT-e: the trip started, so its CIOT can no longer be cancelled. */
export async function mdfeAutorizadoDoCte(
  sql: Sql,
  companyId: string,
  cteId: string,
): Promise<{ mdfe_id: string; chave: string | null } | null> {
  const { rows } = await sql.query(
    `SELECT m.mdfe_id, m.chave FROM rm.mdfe_ctes c JOIN rm.mdfes m ON m.mdfe_id = c.mdfe_id
      WHERE c.company_id = $1 AND c.cte_id = $2 AND m.situacao IN ('autorizado', 'encerrado') ORDER BY m.created_at LIMIT 1`,
    [companyId, cteId],
  );
  return (rows[0] as { mdfe_id: string; chave: string | null } | undefined) ?? null;
}

/** The company's CIOT operations, the latest first (the panel's list; ruling 9 paging or the list's cursor). */
export async function listarCiots(
  sql: Sql,
  companyId: string,
  f: PageRequest,
): Promise<{ rows: CiotRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  const { rows, total, next_cursor } = await q.keysetPage<Record<string, unknown>>(
    sql,
    {
      from: 'rm.ciots',
      columns: COLUMNS,
      list: 'ciot',
      keys: newestFirst('created_at', 'ciot_id'),
    },
    f,
  );
  return { rows: rows as unknown as CiotRow[], total, next_cursor };
}
