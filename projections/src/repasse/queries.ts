import {
  type GatilhoLiberacao,
  type ModoLiberacao,
  type ParcelaRepasse,
  type OrigemRegraRepasse,
  type SituacaoParcela,
} from '@frete/contracts';
import { type Sql } from '../projector';

export interface ParcelaRepasseRow {
  posicao: number;
  percentual: number;
  valor_centavos: number;
  dias: number;
  situacao: SituacaoParcela;
  liberada_por: GatilhoLiberacao | null;
  liberada_em: Date | null;
  /** AAAA-MM-DD. */
  vencimento: string | null;
  ordem_pagamento_id: string | null;
  pagamento_solicitado_em: Date | null;
  paga_em: Date | null;
  cancelada_em: Date | null;
}

export interface RepasseDocumentoRow {
  company_id: string;
  cte_id: string;
  chave: string;
  chave_original: string;
  documento_financeiro: string | null;
  lote_id: string | null;
  grupo: string;
  posicao_no_grupo: number;
  motorista_cpf: string;
  valor_centavos: number;
  regra: { origem: OrigemRegraRepasse; parcelas: ParcelaRepasse[] } | null;
  modo: ModoLiberacao | null;
  financeiro: 'ok' | 'failed';
  erro_financeiro: { code: string; message: string } | null;
  bipado_em: Date | null;
  concluido_em: Date | null;
  prestado_contas_em: Date | null;
  cancelado: boolean;
  cancelado_em: Date | null;
  parcelas: ParcelaRepasseRow[];
}

/** How a request names an installment document (spec section 2): counter-CT-e id, access key or `ROUTE:...`. */
export type ReferenciaRepasse = { cte_id: string } | { chave: string } | { documento_financeiro: string };

const DOC_COLUMNS = `company_id, cte_id, chave, chave_original, documento_financeiro, lote_id, grupo, posicao_no_grupo, motorista_cpf,
  valor_centavos, regra_origem, regra_parcelas, modo, financeiro, financeiro_erro_codigo, financeiro_erro_mensagem, bipado_em, concluido_em,
  prestado_contas_em, cancelado, cancelado_em`;

const PARCELA_COLUMNS = `cte_id, posicao, percentual, valor_centavos, dias, situacao, liberada_por, liberada_em, vencimento::text AS vencimento,
  ordem_pagamento_id, pagamento_solicitado_em, paga_em, cancelada_em`;

/** An installment's columns as a row: a document's installments and the company's list read them alike. */
export const toParcela = (r: Record<string, unknown>): ParcelaRepasseRow => ({
  posicao: r.posicao as number,
  percentual: Number(r.percentual),
  valor_centavos: Number(r.valor_centavos),
  dias: r.dias as number,
  situacao: r.situacao as SituacaoParcela,
  liberada_por: r.liberada_por as GatilhoLiberacao | null,
  liberada_em: r.liberada_em as Date | null,
  vencimento: r.vencimento as string | null,
  ordem_pagamento_id: r.ordem_pagamento_id as string | null,
  pagamento_solicitado_em: r.pagamento_solicitado_em as Date | null,
  paga_em: r.paga_em as Date | null,
  cancelada_em: r.cancelada_em as Date | null,
});

const toDocumento = (r: Record<string, unknown>, parcelas: ParcelaRepasseRow[]): RepasseDocumentoRow => ({
  company_id: r.company_id as string,
  cte_id: r.cte_id as string,
  chave: r.chave as string,
  chave_original: r.chave_original as string,
  documento_financeiro: r.documento_financeiro as string | null,
  lote_id: r.lote_id as string | null,
  grupo: r.grupo as string,
  posicao_no_grupo: r.posicao_no_grupo as number,
  motorista_cpf: r.motorista_cpf as string,
  valor_centavos: Number(r.valor_centavos),
  regra: r.regra_origem === null ? null : { origem: r.regra_origem as OrigemRegraRepasse, parcelas: r.regra_parcelas as ParcelaRepasse[] },
  modo: r.modo as ModoLiberacao | null,
  financeiro: r.financeiro as 'ok' | 'failed',
  erro_financeiro:
    r.financeiro_erro_codigo === null ? null : { code: r.financeiro_erro_codigo as string, message: r.financeiro_erro_mensagem as string },
  bipado_em: r.bipado_em as Date | null,
  concluido_em: r.concluido_em as Date | null,
  prestado_contas_em: r.prestado_contas_em as Date | null,
  cancelado: r.cancelado as boolean,
  cancelado_em: r.cancelado_em as Date | null,
  parcelas,
});

async function comParcelas(sql: Sql, companyId: string, docs: Record<string, unknown>[]): Promise<RepasseDocumentoRow[]> {
  if (docs.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT ${PARCELA_COLUMNS} FROM rm.parcelas_repasse WHERE company_id = $1 AND cte_id = ANY($2::text[]) ORDER BY cte_id, posicao`,
    [companyId, docs.map((d) => d.cte_id)],
  );
  return docs.map((d) => toDocumento(d, rows.filter((p) => p.cte_id === d.cte_id).map(toParcela)));
}

/**
 * The company's document named by its counter-CT-e id, access key or leg document, with its installments; null when
 * unknown. A leg re-issued after a cancellation has the same `ROUTE:...` document: the live one answers for it.
 */
export async function repasseDocumento(sql: Sql, companyId: string, ref: ReferenciaRepasse): Promise<RepasseDocumentoRow | null> {
  const [column, value] =
    'cte_id' in ref ? ['cte_id', ref.cte_id] : 'chave' in ref ? ['chave', ref.chave] : ['documento_financeiro', ref.documento_financeiro];
  const { rows } = await sql.query(
    `SELECT ${DOC_COLUMNS} FROM rm.repasse_documentos WHERE company_id = $1 AND ${column} = $2 ORDER BY cancelado, registrado_em DESC LIMIT 1`,
    [companyId, value],
  );
  const [doc] = await comParcelas(sql, companyId, rows);
  return doc ?? null;
}

/** The company's documents of these counter-CT-e (those that reached the financial step), by counter-CT-e id. */
export async function repasseDocumentosDosCtes(
  sql: Sql,
  companyId: string,
  cteIds: readonly string[],
): Promise<Map<string, RepasseDocumentoRow>> {
  if (cteIds.length === 0) return new Map();
  const { rows } = await sql.query(`SELECT ${DOC_COLUMNS} FROM rm.repasse_documentos WHERE company_id = $1 AND cte_id = ANY($2::text[])`, [
    companyId,
    [...cteIds],
  ]);
  return new Map((await comParcelas(sql, companyId, rows)).map((d) => [d.cte_id, d]));
}

/** The CT-e an MDF-e of the company carries, in its order, and its drivers' CPFs; null for an unknown MDF-e. */
export async function mdfeParaRepasse(
  sql: Sql,
  companyId: string,
  mdfeId: string,
): Promise<{ ctes: { cte_id: string; chave: string }[]; motoristas: string[] } | null> {
  const { rows } = await sql.query('SELECT dados, condutores FROM rm.mdfes WHERE company_id = $1 AND mdfe_id = $2', [companyId, mdfeId]);
  const m = rows[0];
  if (!m) return null;
  const ordem = ((m.dados as { ctes?: { cte_id: string }[] }).ctes ?? []).map((c) => c.cte_id);
  const { rows: ctes } = await sql.query('SELECT cte_id, chave FROM rm.mdfe_ctes WHERE company_id = $1 AND mdfe_id = $2', [
    companyId,
    mdfeId,
  ]);
  const lista = (ctes as { cte_id: string; chave: string }[]).sort((a, b) => ordem.indexOf(a.cte_id) - ordem.indexOf(b.cte_id));
  return { ctes: lista, motoristas: (m.condutores as { cpf: string }[]).map((c) => c.cpf) };
}
