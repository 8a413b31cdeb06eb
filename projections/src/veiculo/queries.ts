import { type VeiculoDados } from '@frete/contracts';
import { ListQuery, type PageRequest } from '../list-query';
import { type Sql } from '../projector';
import { containsPattern } from '../search';
import { umaLinha } from '../uma-linha';

/** An active vehicle of rm.veiculos. */
export type VeiculoRow = VeiculoDados & {
  company_id: string;
  id: number;
  cadastrado_em: Date;
  atualizado_em: Date;
};

const COLUMNS = `company_id, id, placa, renavam, rntrc, uf, tara_kg, capacidade_kg, capacidade_m3, tipo_rodado, tipo_carroceria, tipo,
  proprietario, cadastrado_em, atualizado_em`;

export async function veiculoPorId(sql: Sql, companyId: string, id: number): Promise<VeiculoRow | null> {
  return umaLinha<VeiculoRow>(sql, `SELECT ${COLUMNS} FROM rm.veiculos WHERE company_id = $1 AND id = $2 AND removido_em IS NULL`, [
    companyId,
    id,
  ]);
}

/** The active vehicle with the plate (normalized: upper case, no hyphen), or null. */
export async function veiculoPorPlaca(sql: Sql, companyId: string, placa: string): Promise<VeiculoRow | null> {
  return umaLinha<VeiculoRow>(sql, `SELECT ${COLUMNS} FROM rm.veiculos WHERE company_id = $1 AND placa = $2 AND removido_em IS NULL`, [
    companyId,
    placa,
  ]);
}

/** Active vehicles by id; `search` matches part of the plate (case, spaces and hyphen ignored). */
export async function veiculosList(
  sql: Sql,
  companyId: string,
  f: PageRequest & { search?: string },
): Promise<{ rows: VeiculoRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId).and('removido_em IS NULL');
  const term = f.search?.replace(/[\s-]/g, '').toUpperCase();
  if (term) q.and(`placa LIKE ${q.param(containsPattern(term))}`);
  return q.keysetPage<VeiculoRow>(
    sql,
    {
      from: 'rm.veiculos',
      columns: COLUMNS,
      list: 'veiculos',
      keys: [{ expr: 'id', dir: 'ASC', type: 'integer' }],
    },
    f,
  );
}

/** The row a vehicle's recorded events give (what the projector writes): a write's answer, never waiting for the projection. */
export const veiculoLinha = (e: {
  company_id: string;
  id: number;
  dados: VeiculoDados;
  cadastrado_em: Date;
  atualizado_em: Date;
}): VeiculoRow => ({
  company_id: e.company_id,
  id: e.id,
  ...e.dados,
  cadastrado_em: e.cadastrado_em,
  atualizado_em: e.atualizado_em,
});
