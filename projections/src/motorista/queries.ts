import { type MotoristaDados } from '@frete/contracts';
import { ListQuery, type PageRequest } from '../list-query';
import { type Sql } from '../projector';
import { containsPattern, searchable } from '../search';

/** An active driver of rm.motoristas. */
export type MotoristaRow = MotoristaDados & {
  company_id: string;
  id: number;
  cadastrado_em: Date;
  atualizado_em: Date;
};

const COLUMNS = `company_id, id, cpf, nome, telefone, chave_pix, repasse_modo, repasse_parcelas, cadastrado_em, atualizado_em`;

const toRow = (r: Record<string, unknown>): MotoristaRow => ({
  company_id: r.company_id as string,
  id: r.id as number,
  cpf: r.cpf as string,
  nome: r.nome as string,
  telefone: r.telefone as string | null,
  chave_pix: r.chave_pix as MotoristaRow['chave_pix'],
  repasse: { modo: r.repasse_modo as MotoristaRow['repasse']['modo'], parcelas: r.repasse_parcelas as MotoristaRow['repasse']['parcelas'] },
  cadastrado_em: r.cadastrado_em as Date,
  atualizado_em: r.atualizado_em as Date,
});

export async function motoristaPorId(sql: Sql, companyId: string, id: number): Promise<MotoristaRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.motoristas WHERE company_id = $1 AND id = $2 AND removido_em IS NULL`, [
    companyId,
    id,
  ]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** The active driver with the CPF (11 digits, unpunctuated), or null. */
export async function motoristaPorCpf(sql: Sql, companyId: string, cpf: string): Promise<MotoristaRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.motoristas WHERE company_id = $1 AND cpf = $2 AND removido_em IS NULL`, [
    companyId,
    cpf,
  ]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Active drivers by id; `search` matches part of the name (case and accents ignored) or of the CPF (punctuation ignored). */
export async function motoristasList(
  sql: Sql,
  companyId: string,
  f: PageRequest & { search?: string },
): Promise<{ rows: MotoristaRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId).and('removido_em IS NULL');
  const term = f.search?.trim();
  if (term) {
    const ors = [`nome_busca LIKE ${q.param(containsPattern(searchable(term)))}`];
    const digits = term.replace(/[.\-\s]/g, '');
    if (/^[0-9]+$/.test(digits)) ors.push(`cpf LIKE ${q.param(containsPattern(digits))}`);
    q.and(`(${ors.join(' OR ')})`);
  }
  const { rows, total, next_cursor } = await q.keysetPage<Record<string, unknown>>(
    sql,
    {
      from: 'rm.motoristas',
      columns: COLUMNS,
      list: 'motoristas',
      keys: [{ expr: 'id', dir: 'ASC', type: 'integer' }],
    },
    f,
  );
  return { rows: rows.map(toRow), total, next_cursor };
}

/** The row a driver's recorded events give (what the projector writes): a write's answer, never waiting for the projection. */
export const motoristaLinha = (e: {
  company_id: string;
  id: number;
  dados: MotoristaDados;
  cadastrado_em: Date;
  atualizado_em: Date;
}): MotoristaRow => ({
  company_id: e.company_id,
  id: e.id,
  cpf: e.dados.cpf,
  nome: e.dados.nome,
  telefone: e.dados.telefone,
  chave_pix: e.dados.chave_pix,
  repasse: e.dados.repasse,
  cadastrado_em: e.cadastrado_em,
  atualizado_em: e.atualizado_em,
});
