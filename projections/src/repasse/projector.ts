import { type ProjectedEvent, type Projector, type Sql } from '../projector';
import { emCamadas, type EventoDo } from '../em-camadas';

/**
 * A layer's registrations (see `emCamadas`) in one statement. A registration after a failure (the financial step done
 * again) replaces the failed row.
 */
async function registrados(sql: Sql, events: EventoDo<'repasse.documento_registrado'>[]): Promise<void> {
  await sql.query(
    `INSERT INTO rm.repasse_documentos (company_id, cte_id, chave, chave_original, documento_financeiro, lote_id, grupo, posicao_no_grupo,
       motorista_cpf, valor_centavos, regra_origem, regra_parcelas, modo, financeiro, registrado_em, atualizado_em)
     SELECT company_id, cte_id, chave, chave_original, documento_financeiro, lote_id, grupo, posicao, motorista_cpf, valor_centavos,
       regra_origem, regra_parcelas, modo, 'ok', at, at
     FROM jsonb_to_recordset($1::jsonb) AS u(company_id text, cte_id text, chave text, chave_original text, documento_financeiro text,
       lote_id text, grupo text, posicao integer, motorista_cpf text, valor_centavos bigint, regra_origem text, regra_parcelas jsonb,
       modo text, at timestamptz)
     ON CONFLICT (company_id, cte_id) DO UPDATE SET financeiro = 'ok', financeiro_erro_codigo = NULL, financeiro_erro_mensagem = NULL,
       regra_origem = EXCLUDED.regra_origem, regra_parcelas = EXCLUDED.regra_parcelas, modo = EXCLUDED.modo,
       registrado_em = EXCLUDED.registrado_em, atualizado_em = EXCLUDED.atualizado_em`,
    [
      JSON.stringify(
        events.map(({ data: d, recordedAt }) => ({
          company_id: d.company_id,
          cte_id: d.cte_id,
          chave: d.chave,
          chave_original: d.chave_original,
          documento_financeiro: d.documento_financeiro,
          lote_id: d.lote_id,
          grupo: d.grupo,
          posicao: d.posicao,
          motorista_cpf: d.motorista_cpf,
          valor_centavos: d.valor_centavos,
          regra_origem: d.regra.origem,
          regra_parcelas: d.regra.parcelas,
          modo: d.modo,
          at: recordedAt,
        })),
      ),
    ],
  );
}

/** rm.repasse_documentos and rm.parcelas_repasse: each counter-CT-e's payout and its installments, on the CT-e's rows. */
export const repasseProjector: Projector = {
  name: 'repasse',
  tables: ['rm.repasse_documentos', 'rm.parcelas_repasse'],
  ...emCamadas({
    linha: (e) =>
      e.type.startsWith('repasse.') ? `${(e.data as { company_id: string }).company_id}:${(e.data as { cte_id: string }).cte_id}` : null,
    emGrupo: { 'repasse.documento_registrado': registrados },
    sozinho,
  }),
};

/** The payout's other steps: each alone. */
async function sozinho(sql: Sql, event: ProjectedEvent): Promise<void> {
  switch (event.type) {
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
}
