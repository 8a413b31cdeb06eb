import { type Projector } from '../projector';

export const contingenciaProjector: Projector = {
  name: 'contingencia',
  tables: ['rm.contingencias'],
  async apply(sql, event) {
    switch (event.type) {
      case 'contingencia.ativada': {
        const d = event.data;
        await sql.query(
          `INSERT INTO rm.contingencias (uf, autorizador, tp_emis, dh_cont, justificativa, ativada_por, ativada_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (uf) DO UPDATE SET autorizador = EXCLUDED.autorizador, tp_emis = EXCLUDED.tp_emis, dh_cont = EXCLUDED.dh_cont,
             justificativa = EXCLUDED.justificativa, ativada_por = EXCLUDED.ativada_por, ativada_em = EXCLUDED.ativada_em`,
          [d.uf, d.autorizador, d.tp_emis, d.dh_cont, d.justificativa, event.metadata.actor, event.recordedAt],
        );
        return;
      }
      case 'contingencia.desativada':
        await sql.query(`DELETE FROM rm.contingencias WHERE uf = $1`, [event.data.uf]);
        return;
    }
  },
};
