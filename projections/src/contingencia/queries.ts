import { type AutorizadorContingencia, type TpEmisContingencia, type Uf } from '@frete/contracts';
import { type Sql } from '../projector';
import { umaLinha } from '../uma-linha';

/** A UF in contingency, as the CT-e builder and the operator tool read it. */
export interface ContingenciaRow {
  uf: Uf;
  autorizador: AutorizadorContingencia;
  tp_emis: TpEmisContingencia;
  dh_cont: string;
  justificativa: string;
  ativada_por: string;
  ativada_em: Date;
}

const COLUMNS = 'uf, autorizador, tp_emis, dh_cont, justificativa, ativada_por, ativada_em';

/** The contingency of the UF, or null when the UF issues through its normal authorizer. */
export async function contingenciaOf(sql: Sql, uf: string): Promise<ContingenciaRow | null> {
  return umaLinha<ContingenciaRow>(sql, `SELECT ${COLUMNS} FROM rm.contingencias WHERE uf = $1`, [uf]);
}

/** Every UF in contingency, by UF. */
export async function contingenciasAtivas(sql: Sql): Promise<ContingenciaRow[]> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.contingencias ORDER BY uf`);
  return rows as unknown as ContingenciaRow[];
}
