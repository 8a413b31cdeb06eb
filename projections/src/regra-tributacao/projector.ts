import { camposDaRegra } from '@frete/domain';
import { type Projector } from '../projector';

/** Tax rules: a row per live rule; a change replaces the row's fields, a removal deletes the row. */
export const regraTributacaoProjector: Projector = {
  name: 'regra_tributacao',
  tables: ['rm.regras_tributacao'],
  async apply(sql, event) {
    switch (event.type) {
      case 'regra_tributacao.criada':
      case 'regra_tributacao.alterada': {
        const d = event.data;
        const r = d.regra;
        await sql.query(
          `INSERT INTO rm.regras_tributacao (company_id, regra_id, uf_origem, uf_destino, tp_serv, cfop, icms_cst, icms_aliquota,
                                             icms_reducao_base, ibs_cbs, criada_em, atualizada_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
           ON CONFLICT (company_id, regra_id) DO UPDATE SET
             uf_origem = EXCLUDED.uf_origem, uf_destino = EXCLUDED.uf_destino, tp_serv = EXCLUDED.tp_serv, cfop = EXCLUDED.cfop,
             icms_cst = EXCLUDED.icms_cst, icms_aliquota = EXCLUDED.icms_aliquota, icms_reducao_base = EXCLUDED.icms_reducao_base,
             ibs_cbs = EXCLUDED.ibs_cbs, atualizada_em = EXCLUDED.atualizada_em`,
          [d.company_id, d.regra_id, ...camposDaRegra(r), r.ibs_cbs === null ? null : JSON.stringify(r.ibs_cbs), event.recordedAt],
        );
        return;
      }
      case 'regra_tributacao.removida':
        await sql.query('DELETE FROM rm.regras_tributacao WHERE company_id = $1 AND regra_id = $2', [
          event.data.company_id,
          event.data.regra_id,
        ]);
        return;
    }
  },
};
