import { type CategoriaVeicular, type PracaValePedagio, type SituacaoValePedagio, type TipoValePedagio } from '@frete/contracts';
import { ListQuery, type PageRequest } from '../list-query';
import { newestFirst } from '../list-cursor';
import { type Sql } from '../projector';

export interface ValePedagioRow {
  vale_pedagio_id: string;
  numero: string;
  referencia_externa: string | null;
  situacao: SituacaoValePedagio;
  origem: { codigo_ibge: string; municipio: string; uf: string };
  destino: { codigo_ibge: string; municipio: string; uf: string };
  categoria: CategoriaVeicular;
  eixos: number;
  placa: string;
  tipo: TipoValePedagio;
  motorista: { cpf: string; nome: string | null } | null;
  cte: string | null;
  mdfe: string | null;
  fornecedor: { cnpj: string; nome: string; simulado: boolean };
  pagador_cnpj: string;
  distancia_km: number;
  pracas: PracaValePedagio[];
  /** Plaza code → ISO instant of the passage. */
  passagens: Record<string, string>;
  valor_pedagio_centavos: number;
  taxa_centavos: number;
  valor_total_centavos: number;
  emitido_em: Date;
  cancelavel_ate: Date;
  primeira_passagem_em: Date | null;
  cancelado_em: Date | null;
  estornado_em: Date | null;
  estorno_centavos: number | null;
}

const COLUMNS = `vale_pedagio_id, numero, referencia_externa, situacao, origem_codigo_ibge, origem_municipio, origem_uf, destino_codigo_ibge,
  destino_municipio, destino_uf, categoria, eixos, placa, tipo, motorista_cpf, motorista_nome, cte, mdfe, fornecedor_cnpj, fornecedor_nome,
  fornecedor_simulado, pagador_cnpj, distancia_km, pracas, passagens, valor_pedagio_centavos, taxa_centavos, valor_total_centavos, emitido_em,
  cancelavel_ate, primeira_passagem_em, cancelado_em, estornado_em, estorno_centavos`;

const toRow = (r: Record<string, unknown>): ValePedagioRow => ({
  vale_pedagio_id: r.vale_pedagio_id as string,
  numero: r.numero as string,
  referencia_externa: r.referencia_externa as string | null,
  situacao: r.situacao as SituacaoValePedagio,
  origem: { codigo_ibge: r.origem_codigo_ibge as string, municipio: r.origem_municipio as string, uf: r.origem_uf as string },
  destino: { codigo_ibge: r.destino_codigo_ibge as string, municipio: r.destino_municipio as string, uf: r.destino_uf as string },
  categoria: r.categoria as CategoriaVeicular,
  eixos: r.eixos as number,
  placa: r.placa as string,
  tipo: r.tipo as TipoValePedagio,
  motorista: r.motorista_cpf ? { cpf: r.motorista_cpf as string, nome: r.motorista_nome as string | null } : null,
  cte: r.cte as string | null,
  mdfe: r.mdfe as string | null,
  fornecedor: { cnpj: r.fornecedor_cnpj as string, nome: r.fornecedor_nome as string, simulado: r.fornecedor_simulado as boolean },
  pagador_cnpj: r.pagador_cnpj as string,
  distancia_km: r.distancia_km as number,
  pracas: r.pracas as PracaValePedagio[],
  passagens: r.passagens as Record<string, string>,
  valor_pedagio_centavos: Number(r.valor_pedagio_centavos),
  taxa_centavos: Number(r.taxa_centavos),
  valor_total_centavos: Number(r.valor_total_centavos),
  emitido_em: r.emitido_em as Date,
  cancelavel_ate: r.cancelavel_ate as Date,
  primeira_passagem_em: r.primeira_passagem_em as Date | null,
  cancelado_em: r.cancelado_em as Date | null,
  estornado_em: r.estornado_em as Date | null,
  estorno_centavos: r.estorno_centavos === null ? null : Number(r.estorno_centavos),
});

export async function valePedagioOf(sql: Sql, companyId: string, valePedagioId: string): Promise<ValePedagioRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.vales_pedagio WHERE company_id = $1 AND vale_pedagio_id = $2`, [
    companyId,
    valePedagioId,
  ]);
  return rows[0] ? toRow(rows[0]) : null;
}

export interface ValesPedagioFiltro extends PageRequest {
  situacao?: SituacaoValePedagio;
  placa?: string;
  from?: string;
  to?: string;
}

/** The company's toll passes, the latest first (ruling 9 paging). */
export async function listarValesPedagio(
  sql: Sql,
  companyId: string,
  f: ValesPedagioFiltro,
): Promise<{ rows: ValePedagioRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  if (f.situacao) q.and(`situacao = ${q.param(f.situacao)}`);
  if (f.placa) q.and(`placa = ${q.param(f.placa)}`);
  q.days('emitido_em', f.from, f.to);
  const { rows, total, next_cursor } = await q.keysetPage<Record<string, unknown>>(
    sql,
    {
      from: 'rm.vales_pedagio',
      columns: COLUMNS,
      list: 'vale-pedagio',
      keys: newestFirst('emitido_em', 'vale_pedagio_id'),
    },
    f,
  );
  return { rows: rows.map(toRow), total, next_cursor };
}
