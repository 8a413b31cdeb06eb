import { type CondutorMdfe, type MdfeDados, type MdfeSituacao } from '@frete/contracts';
import { type Sql } from '../projector';
import { ListQuery, type PageRequest } from '../list-query';
import { newestFirst } from '../list-cursor';
import { umaLinha } from '../uma-linha';

export interface MdfeEventoRow {
  tipo: 'cancelamento' | 'encerramento' | 'condutor';
  tp_evento: string;
  n_seq: number;
  situacao: 'registrado' | 'pendente' | 'rejeitado';
  protocolo: { numero: string; recebido_em: string; cstat: number; motivo: string } | null;
  retorno: { cstat: number | null; motivo: string } | null;
  dados: Record<string, unknown>;
  sha256: string | null;
}

export interface MdfeRow {
  mdfe_id: string;
  company_id: string;
  ambiente: string;
  situacao: MdfeSituacao;
  chave: string | null;
  serie: number | null;
  numero: string | null;
  data_emissao: string | null;
  dados: MdfeDados;
  condutores: CondutorMdfe[];
  retorno: { cstat: number | null; motivo: string } | null;
  protocolo: { numero: string; recebido_em: string; cstat: number; motivo: string } | null;
  xml_sha256: string | null;
  eventos: MdfeEventoRow[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'mdfe_id, company_id, ambiente, situacao, chave, serie, numero, data_emissao, dados, condutores, retorno, protocolo, xml_sha256, eventos, created_at, updated_at';

/** One MDF-e of the company; another company's is not found. */
export async function mdfeOf(sql: Sql, companyId: string, mdfeId: string): Promise<MdfeRow | null> {
  return umaLinha<MdfeRow>(sql, `SELECT ${COLUMNS} FROM rm.mdfes WHERE company_id = $1 AND mdfe_id = $2`, [companyId, mdfeId]);
}

/** One MDF-e of the company, by access key (none before its issue); another company's is not found. */
export async function mdfeByKey(sql: Sql, companyId: string, chave: string): Promise<MdfeRow | null> {
  return umaLinha<MdfeRow>(sql, `SELECT ${COLUMNS} FROM rm.mdfes WHERE company_id = $1 AND chave = $2`, [companyId, chave]);
}

/** The company's MDF-e, newest first. */
export async function mdfeList(
  sql: Sql,
  companyId: string,
  f: PageRequest & { situacao?: string },
): Promise<{ rows: MdfeRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  if (f.situacao) q.and(`situacao = ${q.param(f.situacao)}`);
  return q.keysetPage<MdfeRow>(
    sql,
    {
      from: 'rm.mdfes',
      columns: COLUMNS,
      list: 'mdfe',
      keys: newestFirst('created_at', 'mdfe_id'),
    },
    f,
  );
}

/** The MDF-e (authorized and not closed nor cancelled) that carry a CT-e: what blocks its cancellation. */
export async function mdfesAtivosDoCte(sql: Sql, companyId: string, cteId: string): Promise<{ mdfe_id: string; chave: string | null }[]> {
  const { rows } = await sql.query(
    `SELECT m.mdfe_id, m.chave FROM rm.mdfe_ctes c JOIN rm.mdfes m ON m.mdfe_id = c.mdfe_id
      WHERE c.company_id = $1 AND c.cte_id = $2 AND m.situacao IN ('autorizado', 'em_processamento')`,
    [companyId, cteId],
  );
  return rows as { mdfe_id: string; chave: string | null }[];
}
