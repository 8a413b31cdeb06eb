import { type Sql } from '@frete/projections';

/** One read-model table compared with its replay. */
export interface TabelaComparada {
  tabela: string;
  linhas_vivas: number;
  linhas_refeitas: number;
  so_vivas: number;
  so_refeitas: number;
  /** Up to the asked number of rows found only in the live table, as JSON. */
  exemplos_so_vivas: unknown[];
  exemplos_so_refeitas: unknown[];
  /** Null when both tables exist with the same columns; else what differs (the rows are then not compared). */
  estrutura: string | null;
}

/** Bookkeeping, not read models: the checkpoint differs by design (the replay stops where the live one was). */
const FORA_DA_COMPARACAO = new Set(['projection_checkpoint']);

const ident = (nome: string): string => `"${nome.replace(/"/g, '""')}"`;

// json and xml have no equality operator (EXCEPT cannot take them): they are compared as text.
const SEM_IGUALDADE = new Set(['json', 'xml']);

interface Coluna {
  nome: string;
  tipo: string;
}

async function colunasPorTabela(sql: Sql, esquema: string): Promise<Map<string, Coluna[]>> {
  const { rows } = await sql.query(
    `SELECT c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' AND t.table_name NOT LIKE 'pgmigrations%'
      ORDER BY c.table_name, c.ordinal_position`,
    [esquema],
  );
  const tabelas = new Map<string, Coluna[]>();
  for (const row of rows) {
    const tabela = String(row.table_name);
    if (FORA_DA_COMPARACAO.has(tabela)) continue;
    const colunas = tabelas.get(tabela) ?? [];
    colunas.push({ nome: String(row.column_name), tipo: String(row.data_type) });
    tabelas.set(tabela, colunas);
  }
  return tabelas;
}

const assinatura = (colunas: Coluna[]): string => colunas.map((c) => `${c.nome} ${c.tipo}`).join(', ');

const contar = async (sql: Sql, consulta: string): Promise<number> => Number((await sql.query(consulta)).rows[0]!.n);

/**
 * Compares every read-model table of `vivo` with the same table of `refeito`, row by row over all columns and
 * order-insensitive (EXCEPT ALL both ways: a duplicated row counts twice). Run inside one snapshot.
 */
export async function compararEsquemas(sql: Sql, vivo: string, refeito: string, exemplos: number): Promise<TabelaComparada[]> {
  const vivas = await colunasPorTabela(sql, vivo);
  const refeitas = await colunasPorTabela(sql, refeito);
  const nomes = [...new Set([...vivas.keys(), ...refeitas.keys()])].sort();
  const resultado: TabelaComparada[] = [];
  for (const tabela of nomes) {
    const cv = vivas.get(tabela);
    const cr = refeitas.get(tabela);
    const emVivo = `${ident(vivo)}.${ident(tabela)}`;
    const emRefeito = `${ident(refeito)}.${ident(tabela)}`;
    const linha: TabelaComparada = {
      tabela,
      linhas_vivas: cv ? await contar(sql, `SELECT count(*) AS n FROM ${emVivo}`) : 0,
      linhas_refeitas: cr ? await contar(sql, `SELECT count(*) AS n FROM ${emRefeito}`) : 0,
      so_vivas: 0,
      so_refeitas: 0,
      exemplos_so_vivas: [],
      exemplos_so_refeitas: [],
      estrutura: null,
    };
    resultado.push(linha);
    if (!cv || !cr) {
      linha.estrutura = cv ? 'missing from the replay' : 'missing from the live read models';
      continue;
    }
    if (assinatura(cv) !== assinatura(cr)) {
      linha.estrutura = `columns differ: live (${assinatura(cv)}), replay (${assinatura(cr)})`;
      continue;
    }
    const lista = cv.map((c) => (SEM_IGUALDADE.has(c.tipo) ? `${ident(c.nome)}::text AS ${ident(c.nome)}` : ident(c.nome))).join(', ');
    const diferenca = (a: string, b: string) => `SELECT ${lista} FROM ${a} EXCEPT ALL SELECT ${lista} FROM ${b}`;
    for (const [de, para, total, amostra] of [
      [emVivo, emRefeito, 'so_vivas', 'exemplos_so_vivas'],
      [emRefeito, emVivo, 'so_refeitas', 'exemplos_so_refeitas'],
    ] as const) {
      linha[total] = await contar(sql, `SELECT count(*) AS n FROM (${diferenca(de, para)}) d`);
      if (linha[total] > 0 && exemplos > 0) {
        const { rows } = await sql.query(`SELECT to_jsonb(d) AS linha FROM (${diferenca(de, para)}) d LIMIT $1`, [exemplos]);
        linha[amostra] = rows.map((r) => r.linha);
      }
    }
  }
  return resultado;
}
