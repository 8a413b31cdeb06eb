import { type CteLido, type EventData } from '@frete/contracts';
import { type ProjectedEvent, type Projector, type Sql } from '../projector';
import { emCamadas, type EventoDo } from '../em-camadas';
import { colunasDoCte } from '../cte/colunas';
import { searchable } from '../search';
import { recusaDoRecebimento } from './recusa';
import { origemDoCanal } from './origem';

type Leitura = EventData<'cte_subcontratacao.recebido'>;

/** Columns read from the document; a replacement rewrites all of them. */
function documentColumns(
  d: Pick<
    Leitura,
    | 'chave'
    | 'papel_transportadora'
    | 'permite_contra_cte'
    | 'bloqueio_contra_cte'
    | 'recusa_contra_cte'
    | 'cte'
    | 'sha256'
    | 'tamanho_bytes'
  >,
) {
  const c: CteLido = d.cte;
  const recusa = recusaDoRecebimento(d);
  return {
    carrier_role: d.papel_transportadora,
    allows_counter_cte: d.permite_contra_cte,
    counter_cte_blocked_reason: d.bloqueio_contra_cte,
    counter_cte_refusal: recusa ? JSON.stringify(recusa) : null,
    xml_sha256: d.sha256,
    xml_size_bytes: d.tamanho_bytes,
    modelo: c.modelo,
    versao: c.versao,
    serie: c.serie,
    numero: c.numero,
    data_emissao: c.data_emissao,
    ambiente_documento: c.ambiente,
    tipo_servico: c.tipo_servico,
    tipo_cte: c.tipo_cte,
    cfop: c.cfop,
    emitente_cnpj: c.emitente.documento,
    emitente_nome: c.emitente.nome,
    emitente_busca: searchable(c.emitente.nome),
    ...colunasDoCte(c),
    nfe_chaves: c.nfe_chaves,
    autorizado: c.protocolo !== null && [100, 150].includes(c.protocolo.status),
    cte: JSON.stringify(c),
  };
}

async function update(sql: Sql, companyId: string, chave: string, values: Record<string, unknown>): Promise<void> {
  const cols = Object.keys(values);
  await sql.query(
    `UPDATE rm.cte_subcontratacao SET ${cols.map((k, i) => `${k} = $${i + 3}`).join(', ')}, received_count = received_count + 1
      WHERE company_id = $1 AND chave = $2`,
    [companyId, chave, ...Object.values(values)],
  );
}

/** The inbox status follows the counter-CT-e standing against each key (InboundCteStatus): one statement for many keys. */
async function refreshStatus(sql: Sql, chaves: { company_id: string; chave: string }[]): Promise<void> {
  await sql.query(
    `UPDATE rm.cte_subcontratacao i SET status = CASE
        WHEN EXISTS (SELECT 1 FROM rm.subcontratacoes s WHERE s.company_id = i.company_id AND s.chave = i.chave AND s.ativo AND s.modo = '1a1') THEN 'subcontratado'
        WHEN EXISTS (SELECT 1 FROM rm.subcontratacoes s WHERE s.company_id = i.company_id AND s.chave = i.chave AND s.ativo AND s.modo = 'pernas') THEN 'subcontratado_em_pernas'
        ELSE 'recebido' END
      FROM jsonb_to_recordset($1::jsonb) AS u(company_id text, chave text)
      WHERE i.company_id = u.company_id AND i.chave = u.chave`,
    [JSON.stringify(chaves)],
  );
}

/** A layer's keys taken (see `emCamadas`): their reservations in one statement, their inbox status in another. */
async function reservadas(sql: Sql, events: EventoDo<'subcontratacao.reservada'>[]): Promise<void> {
  await sql.query(
    `INSERT INTO rm.subcontratacoes (company_id, chave, cte_id, modo, inicio_ibge, fim_ibge, ativo, reservada_em)
     SELECT company_id, chave, cte_id, modo, inicio_ibge, fim_ibge, true, at
     FROM jsonb_to_recordset($1::jsonb) AS u(company_id text, chave text, cte_id text, modo text, inicio_ibge text, fim_ibge text,
       at timestamptz)
     ON CONFLICT (company_id, chave, cte_id) DO NOTHING`,
    [
      JSON.stringify(
        events.map(({ data: d, recordedAt }) => ({
          company_id: d.company_id,
          chave: d.chave,
          cte_id: d.cte_id,
          modo: d.modo,
          inicio_ibge: d.inicio_ibge,
          fim_ibge: d.fim_ibge,
          at: recordedAt,
        })),
      ),
    ],
  );
  await refreshStatus(
    sql,
    events.map((e) => ({ company_id: e.data.company_id, chave: e.data.chave })),
  );
}

/**
 * rm.cte_subcontratacao: the inbox of CT-e issued by other companies, one row per company and key; and
 * rm.subcontratacoes: every counter-CT-e that took a key, in its mode, active until cancelled or refused.
 */
export const caixaCteProjector: Projector = {
  // The checkpoint's name and the tables are recorded (analysts query them): history, not the code's word.
  name: 'cte_subcontratacao',
  tables: ['rm.cte_subcontratacao', 'rm.subcontratacoes'],
  // Every event of a key is on its rows: the inbox's, and the reservations the status is read from.
  ...emCamadas({
    linha: (e) =>
      e.type.startsWith('cte_subcontratacao.') || e.type.startsWith('subcontratacao.')
        ? `${(e.data as { company_id: string }).company_id}:${(e.data as { chave: string }).chave}`
        : null,
    emGrupo: { 'subcontratacao.reservada': reservadas },
    sozinho,
  }),
};

/** The cancellation as the inbox row shows it. */
const cancelamentoDe = (d: EventData<'cte_subcontratacao.cancelado'>) => ({
  protocolo: d.protocolo,
  cancelado_em: d.cancelado_em,
  xml_sha256: d.sha256,
});

/** The inbox's events, and the reservations' other steps: each alone. */
async function sozinho(sql: Sql, event: ProjectedEvent): Promise<void> {
  switch (event.type) {
    case 'cte_subcontratacao.recebido': {
      const d = event.data;
      const row: Record<string, unknown> = {
        company_id: d.company_id,
        chave: d.chave,
        status: 'recebido',
        received_count: 1,
        content_updated: false,
        first_received_at: event.recordedAt,
        last_received_at: event.recordedAt,
        last_channel: d.canal,
        delivered_by: d.repassado_por ? JSON.stringify(d.repassado_por) : null,
        origem: origemDoCanal(d.canal),
        ...documentColumns(d),
      };
      const cols = Object.keys(row);
      await sql.query(
        `INSERT INTO rm.cte_subcontratacao (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(row),
      );
      return;
    }
    case 'cte_subcontratacao.reenviado': {
      const d = event.data;
      await update(sql, d.company_id, d.chave, {
        content_updated: false,
        last_received_at: event.recordedAt,
        last_channel: d.canal,
        ...(d.repassado_por ? { delivered_by: JSON.stringify(d.repassado_por) } : {}),
      });
      return;
    }
    case 'cte_subcontratacao.substituido': {
      const d = event.data;
      await update(sql, d.company_id, d.chave, {
        content_updated: true,
        last_received_at: event.recordedAt,
        last_channel: d.canal,
        ...(d.repassado_por ? { delivered_by: JSON.stringify(d.repassado_por) } : {}),
        ...documentColumns(d),
      });
      return;
    }
    case 'cte_subcontratacao.cancelado': {
      const d = event.data;
      await sql.query(
        `UPDATE rm.cte_subcontratacao SET cancelamento = $3, allows_counter_cte = false, counter_cte_blocked_reason = 'cte_cancelado',
            counter_cte_refusal = $4
          WHERE company_id = $1 AND chave = $2`,
        [d.company_id, d.chave, JSON.stringify(cancelamentoDe(d)), JSON.stringify(d.recusa_contra_cte)],
      );
      return;
    }
    case 'subcontratacao.liberada': {
      const d = event.data;
      await sql.query(
        `UPDATE rm.subcontratacoes SET ativo = false, liberada_em = $4, motivo_liberacao = $5 WHERE company_id = $1 AND chave = $2 AND cte_id = $3`,
        [d.company_id, d.chave, d.cte_id, event.recordedAt, d.motivo],
      );
      await refreshStatus(sql, [{ company_id: d.company_id, chave: d.chave }]);
      return;
    }
    case 'subcontratacao.paga': {
      const d = event.data;
      await sql.query(`UPDATE rm.subcontratacoes SET paga_em = $4 WHERE company_id = $1 AND chave = $2 AND cte_id = $3`, [
        d.company_id,
        d.chave,
        d.cte_id,
        event.recordedAt,
      ]);
      return;
    }
  }
}
