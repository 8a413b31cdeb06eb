import { type RecordedEvent } from '@frete/contracts';
import { asProjected, type Sql } from '../projector';
import { umaLinha } from '../uma-linha';

/** A row of rm.autorizacoes (one per grant; revoked ones are kept). */
export interface AutorizacaoRow {
  autorizacao_id: string;
  subcontratada_id: string;
  subcontratada_cnpj: string;
  subcontratada_nome: string;
  contratante_id: string;
  contratante_cnpj: string;
  contratante_nome: string;
  status: 'ativa' | 'revogada';
  concedida_em: Date;
  revogada_em: Date | null;
}

const COLUMNS = `autorizacao_id, subcontratada_id, subcontratada_cnpj, subcontratada_nome, contratante_id, contratante_cnpj,
  contratante_nome, status, concedida_em, revogada_em`;

export async function autorizacaoPorId(sql: Sql, autorizacaoId: string): Promise<AutorizacaoRow | null> {
  return umaLinha<AutorizacaoRow>(sql, `SELECT ${COLUMNS} FROM rm.autorizacoes WHERE autorizacao_id = $1`, [autorizacaoId]);
}

/** Active grants a subcontractor gave, oldest first. */
export async function autorizacoesConcedidas(sql: Sql, subcontratadaId: string): Promise<AutorizacaoRow[]> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM rm.autorizacoes WHERE subcontratada_id = $1 AND status = 'ativa' ORDER BY concedida_em, autorizacao_id`,
    [subcontratadaId],
  );
  return rows as unknown as AutorizacaoRow[];
}

/** Active grants a contractor received, oldest first. */
export async function autorizacoesRecebidas(sql: Sql, contratanteId: string): Promise<AutorizacaoRow[]> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM rm.autorizacoes WHERE contratante_id = $1 AND status = 'ativa' ORDER BY concedida_em, autorizacao_id`,
    [contratanteId],
  );
  return rows as unknown as AutorizacaoRow[];
}

/**
 * The active grant from the subcontractor to the contractor, or null: the batch route's check (a batch whose
 * `subcontratada.cnpj` is another company needs it, otherwise 403 `emissao_nao_autorizada`).
 */
export async function autorizacaoAtiva(
  sql: Sql,
  subcontratadaCompanyId: string,
  contratanteCompanyId: string,
): Promise<AutorizacaoRow | null> {
  return umaLinha<AutorizacaoRow>(
    sql,
    `SELECT ${COLUMNS} FROM rm.autorizacoes WHERE subcontratada_id = $1 AND contratante_id = $2 AND status = 'ativa'
      ORDER BY concedida_em DESC LIMIT 1`,
    [subcontratadaCompanyId, contratanteCompanyId],
  );
}

/**
 * The grant's row as the projector writes it, folded from its own recorded events (its stream) instead of read from
 * rm.autorizacoes: what a write answers, so that the answer never waits for, nor fails on, the projection.
 */
export function autorizacaoDoLog(events: readonly RecordedEvent[], autorizacaoId: string): AutorizacaoRow | null {
  let row: AutorizacaoRow | null = null;
  for (const recorded of events) {
    const event = asProjected(recorded);
    if (event?.type === 'autorizacao.concedida' && event.data.autorizacao_id === autorizacaoId) {
      const d = event.data;
      row = {
        autorizacao_id: d.autorizacao_id,
        subcontratada_id: d.subcontratada_id,
        subcontratada_cnpj: d.subcontratada_cnpj,
        subcontratada_nome: d.subcontratada_nome,
        contratante_id: d.contratante_id,
        contratante_cnpj: d.contratante_cnpj,
        contratante_nome: d.contratante_nome,
        status: 'ativa',
        concedida_em: event.recordedAt,
        revogada_em: null,
      };
    } else if (event?.type === 'autorizacao.revogada' && event.data.autorizacao_id === autorizacaoId) {
      const concedida = row as AutorizacaoRow | null;
      if (concedida?.status === 'ativa') row = { ...concedida, status: 'revogada', revogada_em: event.recordedAt };
    }
  }
  return row;
}
