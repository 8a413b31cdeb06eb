import { type Projector } from '../projector';

/** Emission grants: a row per grant; revoking keeps the row, with its status and time, for audit. */
export const autorizacaoProjector: Projector = {
  name: 'autorizacao',
  tables: ['rm.autorizacoes'],
  async apply(sql, event) {
    switch (event.type) {
      case 'autorizacao.concedida': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.autorizacoes (autorizacao_id, subcontratada_id, subcontratada_cnpj, subcontratada_nome,
                                        contratante_id, contratante_cnpj, contratante_nome, status, concedida_em, revogada_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'ativa', $8, NULL)
           ON CONFLICT (autorizacao_id) DO NOTHING`,
          [
            d.autorizacao_id,
            d.subcontratada_id,
            d.subcontratada_cnpj,
            d.subcontratada_nome,
            d.contratante_id,
            d.contratante_cnpj,
            d.contratante_nome,
            event.recordedAt,
          ],
        );
        return;
      }
      case 'autorizacao.revogada':
        await sql.query(`UPDATE rm.autorizacoes SET status = 'revogada', revogada_em = $2 WHERE autorizacao_id = $1 AND status = 'ativa'`, [
          event.data.autorizacao_id,
          event.recordedAt,
        ]);
        return;
    }
  },
};
