import { type Projector } from '../projector';

/** rm.repasse_documentos and rm.parcelas_repasse: each counter-CT-e's payout and its installments. */
export const repasseProjector: Projector = {
  name: 'repasse',
  tables: ['rm.repasse_documentos', 'rm.parcelas_repasse'],
  async apply(sql, event) {
    switch (event.type) {
      case 'repasse.documento_registrado': {
        const d = event.data;
        // A registration after a failure (the financial step done again) replaces the failed row.
        await sql.query(
          `INSERT INTO rm.repasse_documentos (company_id, cte_id, chave, chave_original, documento_financeiro, lote_id, grupo, posicao_no_grupo,
             motorista_cpf, valor_centavos, regra_origem, regra_parcelas, modo, financeiro, registrado_em, atualizado_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'ok', $14, $14)
           ON CONFLICT (company_id, cte_id) DO UPDATE SET financeiro = 'ok', financeiro_erro_codigo = NULL, financeiro_erro_mensagem = NULL,
             regra_origem = EXCLUDED.regra_origem, regra_parcelas = EXCLUDED.regra_parcelas, modo = EXCLUDED.modo,
             registrado_em = EXCLUDED.registrado_em, atualizado_em = EXCLUDED.atualizado_em`,
          [
            d.company_id,
            d.cte_id,
            d.chave,
            d.chave_original,
            d.documento_financeiro,
            d.lote_id,
            d.grupo,
            d.posicao,
            d.motorista_cpf,
            d.valor_centavos,
            d.regra.origem,
            JSON.stringify(d.regra.parcelas),
            d.modo,
            event.recordedAt,
          ],
        );
        return;
      }
      case 'repasse.registro_falhou': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.repasse_documentos (company_id, cte_id, chave, chave_original, documento_financeiro, lote_id, grupo, posicao_no_grupo,
             motorista_cpf, valor_centavos, financeiro, financeiro_erro_codigo, financeiro_erro_mensagem, registrado_em, atualizado_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'failed', $11, $12, $13, $13)
           ON CONFLICT (company_id, cte_id) DO NOTHING`,
          [
            d.company_id,
            d.cte_id,
            d.chave,
            d.chave_original,
            d.documento_financeiro,
            d.lote_id,
            d.grupo,
            d.posicao,
            d.motorista_cpf,
            d.valor_centavos,
            d.code,
            d.message,
            event.recordedAt,
          ],
        );
        return;
      }
      case 'repasse.parcelas_geradas': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.repasse_documentos SET bipado_em = $3, documentos_no_grupo_na_bipagem = $4, ordem_no_grupo_na_bipagem = $5, atualizado_em = $6
            WHERE company_id = $1 AND cte_id = $2`,
          [d.company_id, d.cte_id, d.bipado_em, d.documentos_no_grupo, d.ordem_no_grupo, event.recordedAt],
        );
        const { rows } = await sql.query('SELECT motorista_cpf FROM rm.repasse_documentos WHERE company_id = $1 AND cte_id = $2', [
          d.company_id,
          d.cte_id,
        ]);
        const cpf = rows[0]?.motorista_cpf ?? '';
        for (const p of d.parcelas) {
          await sql.query(
            `INSERT INTO rm.parcelas_repasse (company_id, cte_id, posicao, grupo, motorista_cpf, percentual, valor_centavos, dias, situacao, gerada_em)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pendente', $9) ON CONFLICT (company_id, cte_id, posicao) DO NOTHING`,
            [d.company_id, d.cte_id, p.posicao, d.grupo, cpf, p.percentual, p.valor_centavos, p.dias, d.bipado_em],
          );
        }
        return;
      }
      case 'repasse.conclusao_registrada':
        await sql.query('UPDATE rm.repasse_documentos SET concluido_em = $3, atualizado_em = $4 WHERE company_id = $1 AND cte_id = $2', [
          event.data.company_id,
          event.data.cte_id,
          event.data.concluido_em,
          event.recordedAt,
        ]);
        return;
      case 'repasse.prestacao_contas_registrada':
        await sql.query(
          'UPDATE rm.repasse_documentos SET prestado_contas_em = $3, atualizado_em = $4 WHERE company_id = $1 AND cte_id = $2',
          [event.data.company_id, event.data.cte_id, event.data.prestado_contas_em, event.recordedAt],
        );
        return;
      case 'repasse.parcela_liberada': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.parcelas_repasse SET situacao = 'liberada', liberada_por = $4, liberada_em = $5, vencimento = $6
            WHERE company_id = $1 AND cte_id = $2 AND posicao = $3`,
          [d.company_id, d.cte_id, d.posicao, d.gatilho, d.liberada_em, d.vencimento],
        );
        return;
      }
      case 'repasse.pagamento_solicitado': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.parcelas_repasse SET situacao = 'pagamento_solicitado', ordem_pagamento_id = $4, pagamento_solicitado_em = $5
            WHERE company_id = $1 AND cte_id = $2 AND posicao = $3`,
          [d.company_id, d.cte_id, d.posicao, d.ordem_id, d.solicitado_em],
        );
        return;
      }
      case 'repasse.pagamento_retirado': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.parcelas_repasse SET situacao = 'liberada', ordem_pagamento_id = NULL, pagamento_solicitado_em = NULL
            WHERE company_id = $1 AND cte_id = $2 AND posicao = $3 AND ordem_pagamento_id = $4`,
          [d.company_id, d.cte_id, d.posicao, d.ordem_id],
        );
        return;
      }
      case 'repasse.parcela_paga': {
        const d = event.data;
        await sql.query(
          `UPDATE rm.parcelas_repasse SET situacao = 'paga', paga_em = $4 WHERE company_id = $1 AND cte_id = $2 AND posicao = $3`,
          [d.company_id, d.cte_id, d.posicao, d.paga_em],
        );
        return;
      }
      case 'repasse.documento_cancelado': {
        const d = event.data;
        await sql.query(
          'UPDATE rm.repasse_documentos SET cancelado = true, cancelado_em = $3, atualizado_em = $4 WHERE company_id = $1 AND cte_id = $2',
          [d.company_id, d.cte_id, d.cancelado_em, event.recordedAt],
        );
        await sql.query(
          `UPDATE rm.parcelas_repasse SET situacao = 'cancelada', cancelada_em = $4 WHERE company_id = $1 AND cte_id = $2 AND posicao = ANY($3::int[])`,
          [d.company_id, d.cte_id, d.parcelas_canceladas, d.cancelado_em],
        );
        return;
      }
    }
  },
};
