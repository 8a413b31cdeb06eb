import { type MotoristaDados } from '@frete/contracts';
import { type Projector } from '../projector';
import { searchable } from '../search';

const values = (d: MotoristaDados) => [
  d.cpf, d.nome, searchable(d.nome), d.telefone, d.chave_pix === null ? null : JSON.stringify(d.chave_pix), d.repasse.modo,
  JSON.stringify(d.repasse.parcelas),
];

/** Drivers of each company: a row per id; removal keeps the row with its time. */
export const motoristaProjector: Projector = {
  name: 'motorista',
  tables: ['rm.motoristas'],
  async apply(sql, event) {
    switch (event.type) {
      case 'motorista.cadastrado':
        await sql.query(
          `INSERT INTO rm.motoristas (company_id, id, cpf, nome, nome_busca, telefone, chave_pix, repasse_modo, repasse_parcelas,
                                      cadastrado_em, atualizado_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
           ON CONFLICT (company_id, id) DO NOTHING`,
          [event.data.company_id, event.data.motorista_id, ...values(event.data.dados), event.recordedAt],
        );
        return;
      case 'motorista.alterado':
        await sql.query(
          `UPDATE rm.motoristas SET cpf = $3, nome = $4, nome_busca = $5, telefone = $6, chave_pix = $7, repasse_modo = $8,
                  repasse_parcelas = $9, atualizado_em = $10
            WHERE company_id = $1 AND id = $2`,
          [event.data.company_id, event.data.motorista_id, ...values(event.data.dados), event.recordedAt],
        );
        return;
      case 'motorista.removido':
        await sql.query(
          `UPDATE rm.motoristas SET removido_em = $3, atualizado_em = $3 WHERE company_id = $1 AND id = $2 AND removido_em IS NULL`,
          [event.data.company_id, event.data.motorista_id, event.recordedAt],
        );
        return;
    }
  },
};
