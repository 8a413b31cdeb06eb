import { type NfeArquivoRecebido, type NfeLida, type NfeStatus } from '@frete/contracts';
import { type Sql } from '../projector';
import { ListQuery, type PageRequest } from '../list-query';
import { newestFirst } from '../list-cursor';
import { containsPattern, searchable, startsWithPattern } from '../search';

export interface NfeRow {
  company_id: string;
  chave: string;
  status: NfeStatus;
  xml_disponivel: boolean;
  modelo: string;
  serie: number;
  numero: number;
  uf: string | null;
  data_emissao: string | null;
  ambiente_documento: 'producao' | 'homologacao' | null;
  emitente_documento: string;
  emitente_tipo_documento: 'CNPJ' | 'CPF' | 'estrangeiro' | null;
  emitente_nome: string | null;
  emitente_uf: string | null;
  emitente_municipio: string | null;
  valor_total_centavos: number | null;
  xml_sha256: string | null;
  xml_arquivo: NfeArquivoRecebido | null;
  pdf_sha256: string | null;
  pdf_arquivo: NfeArquivoRecebido | null;
  nfe: NfeLida | null;
  recebimentos: number;
  /** How the key first arrived: files sent (`importacao`) or the national distribution (`distribuicao`). */
  origem: 'importacao' | 'distribuicao';
  importada_em: Date;
  atualizada_em: Date;
}

export interface NfeFilter extends PageRequest {
  search?: string;
  status?: NfeStatus;
}

/** `vinculada` is not stored: an own CT-e carrying the key (rm.cte_nfe) makes it so, whatever else is known. */
const LINKED = `EXISTS (SELECT 1 FROM rm.cte_nfe l WHERE l.company_id = n.company_id AND l.nfe_chave = n.chave)`;
const STATUS = `CASE WHEN ${LINKED} THEN 'vinculada' WHEN n.xml_disponivel THEN 'importada' ELSE 'somente_chave' END`;
const COLUMNS = `n.company_id, n.chave, ${STATUS} AS status, n.xml_disponivel, n.modelo, n.serie, n.numero, n.uf, n.data_emissao,
  n.ambiente_documento, n.emitente_documento, n.emitente_tipo_documento, n.emitente_nome, n.emitente_uf, n.emitente_municipio,
  n.valor_total_centavos, n.xml_sha256, n.xml_arquivo, n.pdf_sha256, n.pdf_arquivo, n.nfe, n.recebimentos, n.origem, n.importada_em,
  n.atualizada_em`;

const toRow = (r: Record<string, unknown>): NfeRow => ({
  ...(r as unknown as NfeRow),
  numero: Number(r.numero),
  valor_total_centavos: r.valor_total_centavos === null ? null : Number(r.valor_total_centavos),
});

/** One NF-e of the company by key; another company's is not found. */
export async function nfeOf(sql: Sql, companyId: string, chave: string): Promise<NfeRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.nfes n WHERE n.company_id = $1 AND n.chave = $2`, [companyId, chave]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Ids of the company's own CT-e that carry the key. */
export async function ctesCarryingNfe(sql: Sql, companyId: string, chave: string): Promise<string[]> {
  const { rows } = await sql.query(`SELECT cte_id FROM rm.cte_nfe WHERE company_id = $1 AND nfe_chave = $2 ORDER BY cte_id`, [
    companyId,
    chave,
  ]);
  return rows.map((r) => r.cte_id as string);
}

/**
 * The company's NF-e, most recently imported first. `search` matches, in one box: the access key or the issuer's
 * or recipient's document (punctuation ignored), the NF-e number, or a part of the issuer's or recipient's name
 * (without regard to case or accents).
 */
export async function nfeList(
  sql: Sql,
  companyId: string,
  f: NfeFilter,
): Promise<{ rows: NfeRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('n.company_id', companyId);
  const param = (value: unknown) => q.param(value);
  const term = f.search?.trim();
  if (term) {
    const ors: string[] = [];
    const document = term.toUpperCase().replace(/[\s./-]/g, '');
    if (/^[0-9A-Z]+$/.test(document) && /[0-9]/.test(document)) {
      const d = param(document);
      ors.push(`n.chave = ${d}`, `n.emitente_documento = ${d}`, `n.destinatario_documento = ${d}`);
      // A CNPJ root (8 characters or more) finds every branch.
      if (document.length >= 8 && document.length < 14) {
        const prefix = param(startsWithPattern(document));
        ors.push(`n.emitente_documento LIKE ${prefix}`, `n.destinatario_documento LIKE ${prefix}`);
      }
    }
    if (/^[0-9]{1,9}$/.test(term.replace(/\./g, ''))) ors.push(`n.numero = ${param(Number(term.replace(/\./g, '')))}`);
    const name = searchable(term);
    if (name) {
      const p = param(containsPattern(name));
      ors.push(`n.emitente_busca LIKE ${p}`, `n.destinatario_busca LIKE ${p}`);
    }
    q.and(ors.length > 0 ? `(${ors.join(' OR ')})` : 'false');
  }
  if (f.status) q.and(`${STATUS} = ${param(f.status)}`);
  const { rows, total, next_cursor } = await q.keysetPage<Record<string, unknown>>(
    sql,
    {
      from: 'rm.nfes n',
      columns: COLUMNS,
      list: 'nfe',
      keys: newestFirst('n.importada_em', 'n.chave'),
    },
    f,
  );
  return { rows: rows.map(toRow), total, next_cursor };
}
