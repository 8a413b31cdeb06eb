import { type RegraTributacaoDados } from '@frete/contracts';
import { type Sql } from '../projector';
import { ListQuery } from '../list-query';
import { umaLinha } from '../uma-linha';

/** A row of rm.regras_tributacao. Rates are integer hundredths of a percentage point. */
export interface RegraTributacaoRow {
  company_id: string;
  regra_id: number;
  uf_origem: string;
  uf_destino: string;
  tp_serv: number | null;
  cfop: string | null;
  icms_cst: string;
  icms_aliquota: number;
  icms_reducao_base: number | null;
  ibs_cbs: RegraTributacaoDados['ibs_cbs'];
  criada_em: Date;
  atualizada_em: Date;
}

export interface RegraTributacaoFilter {
  uf_origem?: string;
  uf_destino?: string;
  /** Exactly this service type (general rules have none). */
  tp_serv?: number;
  page: number;
  per_page: number;
}

const COLUMNS = `company_id, regra_id, uf_origem, uf_destino, tp_serv, cfop, icms_cst, icms_aliquota, icms_reducao_base, ibs_cbs,
  criada_em, atualizada_em`;

/** One rule of the company; another company's is not found. */
export async function regraTributacaoPorId(sql: Sql, companyId: string, regraId: number): Promise<RegraTributacaoRow | null> {
  return umaLinha<RegraTributacaoRow>(sql, `SELECT ${COLUMNS} FROM rm.regras_tributacao WHERE company_id = $1 AND regra_id = $2`, [
    companyId,
    regraId,
  ]);
}

/** The company's rules by origin UF, destination UF, then general rule before the service types, then id. */
export async function regrasTributacao(
  sql: Sql,
  companyId: string,
  f: RegraTributacaoFilter,
): Promise<{ rows: RegraTributacaoRow[]; total: number }> {
  const q = new ListQuery('company_id', companyId);
  if (f.uf_origem) q.and(`uf_origem = ${q.param(f.uf_origem)}`);
  if (f.uf_destino) q.and(`uf_destino = ${q.param(f.uf_destino)}`);
  if (f.tp_serv !== undefined) q.and(`tp_serv = ${q.param(f.tp_serv)}`);
  return q.page<RegraTributacaoRow>(sql, {
    from: 'rm.regras_tributacao',
    columns: COLUMNS,
    orderBy: 'uf_origem, uf_destino, tp_serv NULLS FIRST, regra_id',
    page: f.page,
    per_page: f.per_page,
  });
}

/** Every rule of a UF pair (the general one and those per service type): `regraAplicavel` picks among them. */
export async function regrasDaRota(sql: Sql, companyId: string, ufOrigem: string, ufDestino: string): Promise<RegraTributacaoRow[]> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM rm.regras_tributacao WHERE company_id = $1 AND uf_origem = $2 AND uf_destino = $3
      ORDER BY tp_serv NULLS FIRST, regra_id`,
    [companyId, ufOrigem, ufDestino],
  );
  return rows as unknown as RegraTributacaoRow[];
}

/** The row a rule's recorded events give (what the projector writes): a write's answer, never waiting for the projection. */
export const regraTributacaoLinha = (e: {
  company_id: string;
  id: number;
  dados: RegraTributacaoDados;
  cadastrado_em: Date;
  atualizado_em: Date;
}): RegraTributacaoRow => ({
  company_id: e.company_id,
  regra_id: e.id,
  uf_origem: e.dados.uf_origem,
  uf_destino: e.dados.uf_destino,
  tp_serv: e.dados.tp_serv,
  cfop: e.dados.cfop,
  icms_cst: e.dados.icms.cst,
  icms_aliquota: e.dados.icms.aliquota_centesimos,
  icms_reducao_base: e.dados.icms.reducao_base_centesimos,
  ibs_cbs: e.dados.ibs_cbs,
  criada_em: e.cadastrado_em,
  atualizada_em: e.atualizado_em,
});
