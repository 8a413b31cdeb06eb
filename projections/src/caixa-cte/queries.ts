import { type CteLido, type EventData, type RecordedEvent, type RecusaContraCteLida, type RepassadoPor } from '@frete/contracts';
import { recusaDoRecebimento } from './recusa';
import { type OrigemCaixa, origemDoCanal } from './origem';
import { asProjected, type Sql } from '../projector';
import { containsPattern, searchable, startsWithPattern } from '../search';
import { ListQuery, type PageRequest } from '../list-query';
import { newestFirst } from '../list-cursor';
import { umaLinha } from '../uma-linha';

export interface CaixaCteRow {
  company_id: string;
  chave: string;
  status: string;
  carrier_role: string;
  allows_counter_cte: boolean;
  counter_cte_blocked_reason: string | null;
  counter_cte_refusal: RecusaContraCteLida | null;
  received_count: number;
  content_updated: boolean;
  first_received_at: Date;
  last_received_at: Date;
  last_channel: string;
  delivered_by: RepassadoPor | null;
  /** How the key first reached the inbox. */
  origem: OrigemCaixa;
  /** The contractor's cancellation (event 110111), or null while the CT-e is in force. */
  cancelamento: CancelamentoCaixa | null;
  xml_sha256: string;
  xml_size_bytes: number;
  autorizado: boolean;
  cte: CteLido;
}

export interface CancelamentoCaixa {
  protocolo: string;
  cancelado_em: string;
  /** SHA-256 of the archived procEventoCTe. */
  xml_sha256: string;
}

export interface CaixaCteFilter extends PageRequest {
  search?: string;
  carrier_role?: string;
  status?: string;
  /** Receipt dates, `YYYY-MM-DD`, inclusive, in Brasília time. */
  from?: string;
  to?: string;
}

const COLUMNS = `company_id, chave, status, carrier_role, allows_counter_cte, counter_cte_blocked_reason, counter_cte_refusal, received_count,
  content_updated, first_received_at, last_received_at, last_channel, delivered_by, origem, cancelamento, xml_sha256, xml_size_bytes, autorizado,
  cte`;

export async function caixaCteOf(sql: Sql, companyId: string, chave: string): Promise<CaixaCteRow | null> {
  return umaLinha<CaixaCteRow>(sql, `SELECT ${COLUMNS} FROM rm.cte_subcontratacao WHERE company_id = $1 AND chave = $2`, [
    companyId,
    chave,
  ]);
}

/** The inbox rows of several keys of one company in one query (a batch block's), by key; a key not received is absent. */
export async function caixaCteDe(sql: Sql, companyId: string, chaves: readonly string[]): Promise<Map<string, CaixaCteRow>> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM rm.cte_subcontratacao WHERE company_id = $1 AND chave = ANY($2::text[])`, [
    companyId,
    chaves,
  ]);
  return new Map((rows as unknown as CaixaCteRow[]).map((r) => [r.chave, r]));
}

/** The company's inbox, newest receipt first; `search` matches the key, the issuer's CNPJ or its corporate name. */
export async function caixaCteList(
  sql: Sql,
  companyId: string,
  f: CaixaCteFilter,
): Promise<{ rows: CaixaCteRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  if (f.search && f.search.trim() !== '') {
    const term = f.search.trim();
    const start = q.param(startsWithPattern(term.replace(/[.\-/\s]/g, '').toUpperCase()));
    const name = q.param(containsPattern(searchable(term)));
    q.and(`(chave LIKE ${start} OR emitente_cnpj LIKE ${start} OR emitente_busca LIKE ${name})`);
  }
  if (f.carrier_role) q.and(`carrier_role = ${q.param(f.carrier_role)}`);
  if (f.status) q.and(`status = ${q.param(f.status)}`);
  q.days('first_received_at', f.from, f.to);
  return q.keysetPage<CaixaCteRow>(
    sql,
    {
      from: 'rm.cte_subcontratacao',
      columns: COLUMNS,
      list: 'cte-subcontratacao',
      keys: newestFirst('first_received_at', 'chave'),
    },
    f,
  );
}

/** The inbox status the counter-CT-e standing against the key gives (rm.subcontratacoes), as the projector sets it. */
export async function statusDaCaixa(sql: Sql, companyId: string, chave: string): Promise<string> {
  const { rows } = await sql.query(
    `SELECT CASE
        WHEN EXISTS (SELECT 1 FROM rm.subcontratacoes s WHERE s.company_id = $1 AND s.chave = $2 AND s.ativo AND s.modo = '1a1') THEN 'subcontratado'
        WHEN EXISTS (SELECT 1 FROM rm.subcontratacoes s WHERE s.company_id = $1 AND s.chave = $2 AND s.ativo AND s.modo = 'pernas') THEN 'subcontratado_em_pernas'
        ELSE 'recebido' END AS status`,
    [companyId, chave],
  );
  return rows[0]!.status as string;
}

/**
 * The inbox row of rm.cte_subcontratacao as the projector writes it, folded from the key's own inbox stream instead of
 * read from the table: what a receipt answers, so that the answer never waits for, nor fails on, the projection.
 * `status` follows other aggregates (the counter-CT-e taking the key): the caller gives it (`statusDaCaixa`).
 */
export function caixaCteDoLog(events: readonly RecordedEvent[], status: string): CaixaCteRow | null {
  let row: CaixaCteRow | null = null;
  for (const recorded of events) {
    const event = asProjected(recorded);
    if (!event) continue;
    const at = event.recordedAt;
    if (event.type === 'cte_subcontratacao.recebido') {
      const d = event.data;
      row = {
        company_id: d.company_id,
        chave: d.chave,
        status,
        received_count: 1,
        content_updated: false,
        first_received_at: at,
        last_received_at: at,
        last_channel: d.canal,
        delivered_by: d.repassado_por,
        origem: origemDoCanal(d.canal),
        cancelamento: null,
        ...colunasDoDocumento(d),
      };
      continue;
    }
    if (!row) continue;
    if (event.type === 'cte_subcontratacao.cancelado') {
      const d = event.data;
      row = {
        ...row,
        cancelamento: { protocolo: d.protocolo, cancelado_em: d.cancelado_em, xml_sha256: d.sha256 },
        allows_counter_cte: false,
        counter_cte_blocked_reason: 'cte_cancelado',
        counter_cte_refusal: d.recusa_contra_cte,
      };
      continue;
    }
    if (event.type === 'cte_subcontratacao.reenviado' || event.type === 'cte_subcontratacao.substituido') {
      const d = event.data;
      row = {
        ...row,
        received_count: row.received_count + 1,
        content_updated: event.type === 'cte_subcontratacao.substituido',
        last_received_at: at,
        last_channel: d.canal,
        ...(d.repassado_por ? { delivered_by: d.repassado_por } : {}),
        ...(event.type === 'cte_subcontratacao.substituido' ? colunasDoDocumento(event.data) : {}),
      };
    }
  }
  return row;
}

const colunasDoDocumento = (d: EventData<'cte_subcontratacao.recebido'> | EventData<'cte_subcontratacao.substituido'>) => ({
  carrier_role: d.papel_transportadora,
  allows_counter_cte: d.permite_contra_cte,
  counter_cte_blocked_reason: d.bloqueio_contra_cte,
  counter_cte_refusal: recusaDoRecebimento(d),
  xml_sha256: d.sha256,
  xml_size_bytes: d.tamanho_bytes,
  autorizado: d.cte.protocolo !== null && [100, 150].includes(d.cte.protocolo.status),
  cte: d.cte,
});
