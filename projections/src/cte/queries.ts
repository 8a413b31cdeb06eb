import {
  type ContraCteVinculo,
  type CorrecaoEmVigorCte,
  type CteLido,
  type CteRascunho,
  type CteSituation,
  type RecordedEvent,
} from '@frete/contracts';
import { asProjected, type Sql } from '../projector';
import { ListQuery, type PageRequest } from '../list-query';
import { newestFirst } from '../list-cursor';
import { umaLinha } from '../uma-linha';

export interface CteRow {
  cte_id: string;
  company_id: string;
  chave: string | null;
  origem: string;
  situacao: CteSituation;
  service_type: number;
  xml_sha256: string | null;
  xml_size_bytes: number | null;
  received_count: number;
  handoffs: number;
  cte: CteLido | null;
  dados: CteRascunho | null;
  /** The link of a counter-CT-e to the contractor's CT-e, its batch row and driver. */
  contra_cte: ContraCteVinculo | null;
  serie: number | null;
  numero: string | null;
  retorno: { cstat: number | null; motivo: string } | null;
  /** The corrections in force (CC-e), as the last registered letter's event carries them. */
  correcoes_em_vigor: CorrecaoEmVigorCte[];
  created_at: Date;
  updated_at: Date;
}

export interface CteFilter extends PageRequest {
  /** The HTTP query calls it `status` (the spec's word); the row and the table say `situacao`. */
  situacao?: string;
  /** Issue dates (`dhEmi`; a draft's creation), `YYYY-MM-DD`, inclusive, in Brasília time. */
  from?: string;
  to?: string;
}

const COLUMNS =
  'cte_id, company_id, chave, origem, situacao, service_type, xml_sha256, xml_size_bytes, received_count, handoffs, cte, dados, contra_cte, serie, numero, retorno, correcoes_em_vigor, created_at, updated_at';

/** One own CT-e of the company, by id; another company's is not found. */
export async function cteOf(sql: Sql, companyId: string, cteId: string): Promise<CteRow | null> {
  return umaLinha<CteRow>(sql, `SELECT ${COLUMNS} FROM rm.ctes WHERE company_id = $1 AND cte_id = $2`, [companyId, cteId]);
}

export async function cteByKey(sql: Sql, companyId: string, chave: string): Promise<CteRow | null> {
  return umaLinha<CteRow>(sql, `SELECT ${COLUMNS} FROM rm.ctes WHERE company_id = $1 AND chave = $2`, [companyId, chave]);
}

/** Own CT-e, newest first. */
export async function cteList(
  sql: Sql,
  companyId: string,
  f: CteFilter,
): Promise<{ rows: CteRow[]; total: number; next_cursor: string | null }> {
  const q = new ListQuery('company_id', companyId);
  if (f.situacao) q.and(`situacao = ${q.param(f.situacao)}`);
  q.days('COALESCE(emitido_em, created_at)', f.from, f.to);
  return q.keysetPage<CteRow>(
    sql,
    {
      from: 'rm.ctes',
      columns: COLUMNS,
      list: 'cte',
      keys: newestFirst('created_at', 'cte_id'),
    },
    f,
  );
}

/**
 * The CT-e's row of rm.ctes as the projector writes it, folded from the CT-e's own recorded events (its stream) instead
 * of read from the table: what a write answers, so that the answer never waits for, nor fails on, the projection. The
 * cases follow `cteProjector` one for one; null before the CT-e exists.
 */
export function cteDoLog(events: readonly RecordedEvent[]): CteRow | null {
  let row: CteRow | null = null;
  const retorno = (p: { cstat: number; motivo: string }) => ({ cstat: p.cstat, motivo: p.motivo });
  for (const recorded of events) {
    const event = asProjected(recorded);
    if (!event) continue;
    const at = event.recordedAt;
    const novo = (origem: string, d: { cte_id: string; company_id: string }): CteRow => ({
      cte_id: d.cte_id,
      company_id: d.company_id,
      chave: null,
      origem,
      situacao: 'rascunho',
      service_type: 0,
      xml_sha256: null,
      xml_size_bytes: null,
      received_count: 0,
      handoffs: 0,
      cte: null,
      dados: null,
      contra_cte: null,
      serie: null,
      numero: null,
      retorno: null,
      correcoes_em_vigor: [],
      created_at: at,
      updated_at: at,
    });
    switch (event.type) {
      case 'cte.emitido_recebido': {
        const d = event.data;
        if (row) break;
        row = {
          ...novo('cte_emitido', d),
          chave: d.chave,
          situacao: d.situacao,
          serie: d.cte.serie,
          numero: String(d.cte.numero),
          service_type: d.cte.tipo_servico,
          xml_sha256: d.sha256,
          xml_size_bytes: d.tamanho_bytes,
          received_count: 1,
          cte: d.cte,
        };
        break;
      }
      case 'cte.rascunho_criado':
        if (!row) row = { ...novo('emissao', event.data), service_type: event.data.dados.tipo_servico ?? 0, dados: event.data.dados };
        break;
      case 'cte.contra_cte_criado': {
        const d = event.data;
        if (!row) row = { ...novo('contra_cte', d), service_type: d.vinculo.tipo_servico, dados: d.dados, contra_cte: d.vinculo };
        break;
      }
      default:
        if (!row) break;
        row = cteDepois(row, event, at, retorno);
    }
  }
  return row;
}

/** One later event of a CT-e on its row, as `cteProjector` updates it. */
function cteDepois(
  row: CteRow,
  event: ReturnType<typeof asProjected> & object,
  at: Date,
  retorno: (p: { cstat: number; motivo: string }) => CteRow['retorno'],
): CteRow {
  switch (event.type) {
    case 'cte.rascunho_alterado':
      return { ...row, situacao: 'rascunho', dados: event.data.dados, service_type: event.data.dados.tipo_servico ?? 0, updated_at: at };
    case 'cte.emissao_solicitada':
      return { ...row, situacao: 'em_processamento', serie: event.data.serie, retorno: null, updated_at: at };
    case 'cte.xml_assinado':
      return { ...row, chave: event.data.chave, serie: event.data.serie, numero: String(event.data.numero), updated_at: at };
    case 'cte.autorizado':
      return {
        ...row,
        situacao: 'autorizado',
        chave: event.data.chave,
        xml_sha256: event.data.sha256,
        xml_size_bytes: event.data.tamanho_bytes ?? null,
        cte: event.data.cte,
        retorno: retorno(event.data.protocolo),
        updated_at: at,
      };
    case 'cte.rejeitado':
      return { ...row, situacao: 'rejeitado', chave: null, retorno: retorno(event.data), updated_at: at };
    case 'cte.denegado':
      return { ...row, situacao: 'denegado', retorno: retorno(event.data.protocolo), updated_at: at };
    case 'cte.resultado_pendente':
      return { ...row, retorno: { cstat: null, motivo: event.data.motivo }, updated_at: at };
    case 'cte.emitido_reenviado':
      return { ...row, received_count: row.received_count + 1, updated_at: at };
    case 'cte.evento_registrado':
      if (event.data.correcoes_em_vigor) return { ...row, correcoes_em_vigor: event.data.correcoes_em_vigor, updated_at: at };
      return event.data.tp_evento === '110111'
        ? { ...row, situacao: 'cancelado', retorno: retorno(event.data.protocolo), updated_at: at }
        : row;
    case 'cte.repassado':
      return { ...row, handoffs: row.handoffs + 1, updated_at: at };
    default:
      return row;
  }
}
