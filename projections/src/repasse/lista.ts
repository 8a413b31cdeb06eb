import { type SituacaoParcela } from '@frete/contracts';
import { type Sql } from '../projector';
import { ListQuery, type PageRequest } from '../list-query';
import { type OrderKey } from '../list-cursor';
import { type ParcelaRepasseRow, toParcela } from './queries';

/** One installment of the company's list, with what names its document (the document itself is read per document). */
export interface ParcelaListadaRow extends ParcelaRepasseRow {
  cte_id: string;
  chave: string;
  documento_financeiro: string | null;
  lote_id: string | null;
  motorista_cpf: string;
}

export interface ParcelasFiltro extends PageRequest {
  situacao?: SituacaoParcela;
  /** Due on or before this day (AAAA-MM-DD): an installment without a due date is left out. */
  vencimento_ate?: string;
}

/**
 * Earliest due date first; those without one (not released yet) after every dated one. The sort key is the date as
 * text (ISO dates sort as text as they do as dates), with a day no due date reaches for none, so the keyset cursor
 * never compares a null.
 */
const SEM_VENCIMENTO = '9999-12-31';
const KEYS: readonly OrderKey[] = [
  { expr: `coalesce(p.vencimento::text, '${SEM_VENCIMENTO}')`, dir: 'ASC', type: 'text' },
  { expr: 'p.cte_id', dir: 'ASC', type: 'text' },
  { expr: 'p.posicao', dir: 'ASC', type: 'integer' },
];

// An installment's own columns as `toParcela` reads them, with what names its document.
const COLUMNS = `p.cte_id, d.chave, d.documento_financeiro, d.lote_id, p.motorista_cpf, p.posicao, p.percentual, p.valor_centavos, p.dias,
  p.situacao, p.liberada_por, p.liberada_em, p.vencimento::text AS vencimento, p.ordem_pagamento_id, p.pagamento_solicitado_em, p.paga_em,
  p.cancelada_em`;

/** The company's installments by due date, filtered by situation and due date (ruling 9 paging, with a cursor). */
export async function listarParcelas(
  sql: Sql,
  companyId: string,
  f: ParcelasFiltro,
): Promise<{ rows: ParcelaListadaRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('p.company_id', companyId);
  if (f.situacao) q.and(`p.situacao = ${q.param(f.situacao)}`);
  if (f.vencimento_ate) q.and(`p.vencimento <= ${q.param(f.vencimento_ate)}::date`);
  const { rows, total, next_cursor } = await q.keysetPage<Record<string, unknown>>(
    sql,
    {
      list: 'parcelas-repasse',
      from: 'rm.parcelas_repasse p JOIN rm.repasse_documentos d ON d.company_id = p.company_id AND d.cte_id = p.cte_id',
      countFrom: 'rm.parcelas_repasse p',
      columns: COLUMNS,
      keys: KEYS,
    },
    f,
  );
  return {
    rows: rows.map((r) => ({
      ...toParcela(r),
      cte_id: r.cte_id as string,
      chave: r.chave as string,
      documento_financeiro: r.documento_financeiro as string | null,
      lote_id: r.lote_id as string | null,
      motorista_cpf: r.motorista_cpf as string,
    })),
    total,
    next_cursor,
  };
}
