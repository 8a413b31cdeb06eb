import { type MotivoEstorno, type OrigemCredito, type TipoMovimento } from '@frete/contracts';
import { ListQuery, type PageRequest } from '../list-query';
import { type Sql } from '../projector';

export interface MovimentoContaRow {
  sequencia: number;
  tipo: TipoMovimento;
  /** Signed: debits negative. */
  valor_centavos: number;
  valor_pedagio_centavos: number | null;
  taxa_centavos: number | null;
  saldo_apos_centavos: number;
  referencia: string | null;
  origem_credito: OrigemCredito | null;
  vale_pedagio_id: string | null;
  motivo_estorno: MotivoEstorno | null;
  registrado_em: Date;
}

export interface ResumoContaRow {
  saldo_centavos: number;
  creditos_centavos: number;
  debitos_centavos: number;
  estornos_centavos: number;
  movimentos: number;
  atualizado_em: Date | null;
}

const COLUMNS = `sequencia, tipo, valor_centavos, valor_pedagio_centavos, taxa_centavos, saldo_apos_centavos, referencia, origem_credito,
  vale_pedagio_id, motivo_estorno, registrado_em`;

const nullableNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const toMovimento = (r: Record<string, unknown>): MovimentoContaRow => ({
  sequencia: r.sequencia as number,
  tipo: r.tipo as TipoMovimento,
  valor_centavos: Number(r.valor_centavos),
  valor_pedagio_centavos: nullableNumber(r.valor_pedagio_centavos),
  taxa_centavos: nullableNumber(r.taxa_centavos),
  saldo_apos_centavos: Number(r.saldo_apos_centavos),
  referencia: r.referencia as string | null,
  origem_credito: r.origem_credito as OrigemCredito | null,
  vale_pedagio_id: r.vale_pedagio_id as string | null,
  motivo_estorno: r.motivo_estorno as MotivoEstorno | null,
  registrado_em: r.registrado_em as Date,
});

/** The balance is the sum of the ledger (it equals the last movement's saldo_apos). */
export async function resumoContaOperacional(sql: Sql, companyId: string): Promise<ResumoContaRow> {
  const { rows } = await sql.query(
    `SELECT COALESCE(sum(valor_centavos), 0)::bigint AS saldo,
            COALESCE(sum(valor_centavos) FILTER (WHERE tipo = 'credito'), 0)::bigint AS creditos,
            COALESCE(-sum(valor_centavos) FILTER (WHERE tipo = 'debito'), 0)::bigint AS debitos,
            COALESCE(sum(valor_centavos) FILTER (WHERE tipo = 'estorno'), 0)::bigint AS estornos,
            count(*)::int AS movimentos, max(registrado_em) AS atualizado_em
       FROM rm.conta_operacional_movimentos WHERE company_id = $1`,
    [companyId],
  );
  const r = rows[0]!;
  return {
    saldo_centavos: Number(r.saldo),
    creditos_centavos: Number(r.creditos),
    debitos_centavos: Number(r.debitos),
    estornos_centavos: Number(r.estornos),
    movimentos: r.movimentos as number,
    atualizado_em: (r.atualizado_em as Date | null) ?? null,
  };
}

export async function movimentoContaOperacional(sql: Sql, companyId: string, sequencia: number): Promise<MovimentoContaRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.conta_operacional_movimentos WHERE company_id = $1 AND sequencia = $2`, [
    companyId,
    sequencia,
  ]);
  return rows[0] ? toMovimento(rows[0]) : null;
}

export interface ExtratoFiltro extends PageRequest {
  tipo?: TipoMovimento;
  from?: string;
  to?: string;
  ordem?: 'asc' | 'desc';
}

/** The statement (ruling 9 paging), by ledger order. */
export async function extratoContaOperacional(
  sql: Sql,
  companyId: string,
  f: ExtratoFiltro,
): Promise<{ rows: MovimentoContaRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  if (f.tipo) q.and(`tipo = ${q.param(f.tipo)}`);
  q.days('registrado_em', f.from, f.to);
  const { rows, total, next_cursor } = await q.keysetPage<Record<string, unknown>>(
    sql,
    {
      from: 'rm.conta_operacional_movimentos',
      columns: COLUMNS,
      list: `extrato-${f.ordem === 'desc' ? 'desc' : 'asc'}`,
      keys: [{ expr: 'sequencia', dir: f.ordem === 'desc' ? 'DESC' : 'ASC', type: 'integer' }],
    },
    f,
  );
  return { rows: rows.map(toMovimento), total, next_cursor };
}
