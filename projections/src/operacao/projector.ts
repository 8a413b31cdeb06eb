import { type ProjectedEvent, type Projector, type Sql } from '../projector';
import { emCamadas, type EventoDo } from '../em-camadas';
import { colunasDoCte } from '../cte/colunas';

/** The delivery proof (110180) confirms the delivery; its cancellation (110181) puts it back to confirm. */
async function sozinho(sql: Sql, event: ProjectedEvent): Promise<void> {
  if (event.type !== 'cte.evento_registrado') return;
  const d = event.data;
  if (d.tp_evento === '110180') {
    await sql.query(`UPDATE rm.entregas SET status = 'confirmada', confirmada_em = $2 WHERE cte_id = $1`, [d.cte_id, d.registrado_em]);
  } else if (d.tp_evento === '110181') {
    await sql.query(`UPDATE rm.entregas SET status = 'a_confirmar', confirmada_em = NULL WHERE cte_id = $1`, [d.cte_id]);
  }
}

/** Own CT-e delivered by the carrier, or issued here once authorized: its service, delivery and receivable, for a layer at once. */
async function abertos(sql: Sql, events: EventoDo<'cte.emitido_recebido' | 'cte.autorizado'>[]): Promise<void> {
  const ctes = events.map(({ data: d, recordedAt }) => {
    const c = d.cte;
    // The cargo is delivered to the receiver (recebedor) when there is one, otherwise to the recipient.
    const entregue = c.recebedor ?? c.destinatario;
    return {
      cte_id: d.cte_id,
      company_id: d.company_id,
      chave: d.chave,
      ...colunasDoCte(c),
      data_emissao: c.data_emissao,
      destinatario_documento: entregue?.documento ?? null,
      destinatario_nome: entregue?.nome ?? null,
      at: recordedAt,
    };
  });
  const linhas = `jsonb_to_recordset($1::jsonb) AS u(cte_id text, company_id text, chave text, tomador_documento text, tomador_nome text,
    tomador_papel text, inicio_municipio text, inicio_uf text, fim_municipio text, fim_uf text, valor_prestacao_centavos bigint,
    valor_receber_centavos bigint, data_emissao text, destinatario_documento text, destinatario_nome text, at timestamptz)`;
  const params = [JSON.stringify(ctes)];
  await sql.query(
    `INSERT INTO rm.servicos (cte_id, company_id, chave, tomador_documento, tomador_nome, inicio_municipio, inicio_uf,
       fim_municipio, fim_uf, valor_centavos, data_emissao, status, registrado_em)
     SELECT cte_id, company_id, chave, tomador_documento, tomador_nome, inicio_municipio, inicio_uf, fim_municipio, fim_uf,
       valor_prestacao_centavos, data_emissao, 'registrado', at FROM ${linhas}`,
    params,
  );
  await sql.query(
    `INSERT INTO rm.entregas (cte_id, company_id, chave, destinatario_documento, destinatario_nome, municipio, uf, status, criada_em)
     SELECT cte_id, company_id, chave, destinatario_documento, destinatario_nome, fim_municipio, fim_uf, 'a_confirmar', at FROM ${linhas}`,
    params,
  );
  await sql.query(
    `INSERT INTO rm.recebiveis (cte_id, company_id, chave, devedor_documento, devedor_nome, devedor_papel, valor_centavos,
       valor_prestacao_centavos, status, criado_em)
     SELECT cte_id, company_id, chave, tomador_documento, tomador_nome, tomador_papel, valor_receber_centavos, valor_prestacao_centavos,
       'em_aberto', at FROM ${linhas}`,
    params,
  );
}

/**
 * The operational and financial flow an own CT-e opens: the service performed (rm.servicos), the delivery to
 * confirm at the recipient (rm.entregas), and the receivable from the taker (rm.recebiveis, for `vRec`, the
 * amount to receive; `vTPrest` beside it).
 */
export const operacaoProjector: Projector = {
  name: 'operacao',
  tables: ['rm.servicos', 'rm.entregas', 'rm.recebiveis'],
  ...emCamadas({
    linha: (e) =>
      e.type === 'cte.emitido_recebido' || e.type === 'cte.autorizado' || e.type === 'cte.evento_registrado' ? e.data.cte_id : null,
    emGrupo: { 'cte.emitido_recebido': abertos, 'cte.autorizado': abertos },
    sozinho,
  }),
};
