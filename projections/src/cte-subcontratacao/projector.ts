import { type CteLido, type EventData } from '@frete/contracts';
import { type Projector, type Sql } from '../projector';
import { searchable } from '../search';

type Leitura = EventData<'cte_subcontratacao.recebido'>;

/** Columns read from the document; a replacement rewrites all of them. */
function documentColumns(
  d: Pick<Leitura, 'papel_transportadora' | 'permite_contra_cte' | 'bloqueio_contra_cte' | 'cte' | 'sha256' | 'tamanho_bytes'>,
) {
  const c: CteLido = d.cte;
  return {
    carrier_role: d.papel_transportadora,
    allows_counter_cte: d.permite_contra_cte,
    counter_cte_blocked_reason: d.bloqueio_contra_cte,
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
    tomador_papel: c.tomador.papel,
    tomador_documento: c.tomador.parte?.documento ?? null,
    tomador_nome: c.tomador.parte?.nome ?? null,
    inicio_municipio: c.inicio.municipio,
    inicio_uf: c.inicio.uf,
    fim_municipio: c.fim.municipio,
    fim_uf: c.fim.uf,
    valor_prestacao_centavos: c.valor_prestacao_centavos,
    valor_receber_centavos: c.valor_receber_centavos,
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

/** The inbox status follows the counter-CT-e standing against the key (InboundCteStatus). */
async function refreshStatus(sql: Sql, companyId: string, chave: string): Promise<void> {
  await sql.query(
    `UPDATE rm.cte_subcontratacao i SET status = CASE
        WHEN EXISTS (SELECT 1 FROM rm.subcontratacoes s WHERE s.company_id = i.company_id AND s.chave = i.chave AND s.ativo AND s.modo = '1a1') THEN 'subcontratado'
        WHEN EXISTS (SELECT 1 FROM rm.subcontratacoes s WHERE s.company_id = i.company_id AND s.chave = i.chave AND s.ativo AND s.modo = 'pernas') THEN 'subcontratado_em_pernas'
        ELSE 'recebido' END
      WHERE company_id = $1 AND chave = $2`,
    [companyId, chave],
  );
}

/**
 * rm.cte_subcontratacao: the inbox of CT-e issued by other companies, one row per company and key; and
 * rm.subcontratacoes: every counter-CT-e that took a key, in its mode, active until cancelled or refused.
 */
export const cteSubcontratacaoProjector: Projector = {
  name: 'cte_subcontratacao',
  tables: ['rm.cte_subcontratacao', 'rm.subcontratacoes'],
  async apply(sql, event) {
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
      case 'subcontratacao.reservada': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.subcontratacoes (company_id, chave, cte_id, modo, inicio_ibge, fim_ibge, ativo, reservada_em)
           VALUES ($1, $2, $3, $4, $5, $6, true, $7) ON CONFLICT (company_id, chave, cte_id) DO NOTHING`,
          [d.company_id, d.chave, d.cte_id, d.modo, d.inicio_ibge, d.fim_ibge, event.recordedAt],
        );
        await refreshStatus(sql, d.company_id, d.chave);
        return;
      }
      case 'subcontratacao.liberada': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.subcontratacoes SET ativo = false, liberada_em = $4, motivo_liberacao = $5 WHERE company_id = $1 AND chave = $2 AND cte_id = $3`,
          [d.company_id, d.chave, d.cte_id, event.recordedAt, d.motivo],
        );
        await refreshStatus(sql, d.company_id, d.chave);
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
  },
};
