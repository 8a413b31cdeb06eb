import { type Projector } from '../projector';

/**
 * The operational and financial flow an own CT-e opens: the service performed (rm.servicos), the delivery to
 * confirm at the recipient (rm.entregas), and the receivable from the taker (rm.recebiveis, for `vRec`, the
 * amount to receive; `vTPrest` beside it).
 */
export const operacaoProjector: Projector = {
  name: 'operacao',
  tables: ['rm.servicos', 'rm.entregas', 'rm.recebiveis'],
  async apply(sql, event) {
    // The delivery proof (110180) confirms the delivery; its cancellation (110181) puts it back to confirm.
    if (event.type === 'cte.evento_registrado') {
      const d = event.data;
      if (d.tp_evento === '110180') {
        await sql.query(`UPDATE rm.entregas SET status = 'confirmada', confirmada_em = $2 WHERE cte_id = $1`, [d.cte_id, d.registrado_em]);
      } else if (d.tp_evento === '110181') {
        await sql.query(`UPDATE rm.entregas SET status = 'a_confirmar', confirmada_em = NULL WHERE cte_id = $1`, [d.cte_id]);
      }
      return;
    }
    // Own CT-e delivered by the carrier, or issued here once authorized.
    if (event.type !== 'cte.emitido_recebido' && event.type !== 'cte.autorizado') return;
    const d = event.data;
    const c = d.cte;
    const tomador = c.tomador.parte;
    await sql.query(
      `INSERT INTO rm.servicos (cte_id, company_id, chave, tomador_documento, tomador_nome, inicio_municipio, inicio_uf,
         fim_municipio, fim_uf, valor_centavos, data_emissao, status, registrado_em)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'registrado', $12)`,
      [
        d.cte_id,
        d.company_id,
        d.chave,
        tomador?.documento ?? null,
        tomador?.nome ?? null,
        c.inicio.municipio,
        c.inicio.uf,
        c.fim.municipio,
        c.fim.uf,
        c.valor_prestacao_centavos,
        c.data_emissao,
        event.recordedAt,
      ],
    );
    // The cargo is delivered to the receiver (recebedor) when there is one, otherwise to the recipient.
    const entregue = c.recebedor ?? c.destinatario;
    await sql.query(
      `INSERT INTO rm.entregas (cte_id, company_id, chave, destinatario_documento, destinatario_nome, municipio, uf, status, criada_em)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'a_confirmar', $8)`,
      [d.cte_id, d.company_id, d.chave, entregue?.documento ?? null, entregue?.nome ?? null, c.fim.municipio, c.fim.uf, event.recordedAt],
    );
    await sql.query(
      `INSERT INTO rm.recebiveis (cte_id, company_id, chave, devedor_documento, devedor_nome, devedor_papel, valor_centavos,
         valor_prestacao_centavos, status, criado_em)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'em_aberto', $9)`,
      [
        d.cte_id,
        d.company_id,
        d.chave,
        tomador?.documento ?? null,
        tomador?.nome ?? null,
        c.tomador.papel,
        c.valor_receber_centavos,
        c.valor_prestacao_centavos,
        event.recordedAt,
      ],
    );
  },
};
