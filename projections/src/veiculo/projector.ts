import { type VeiculoDados } from '@frete/contracts';
import { type Projector } from '../projector';

const values = (d: VeiculoDados) => [
  d.placa, d.renavam, d.rntrc, d.uf, d.tara_kg, d.capacidade_kg, d.capacidade_m3, d.tipo_rodado, d.tipo_carroceria, d.tipo,
  d.proprietario === null ? null : JSON.stringify(d.proprietario),
];

/** Vehicles of each company: a row per id; removal keeps the row with its time. */
export const veiculoProjector: Projector = {
  name: 'veiculo',
  tables: ['rm.veiculos'],
  async apply(sql, event) {
    switch (event.type) {
      case 'veiculo.cadastrado':
        await sql.query(
          `INSERT INTO rm.veiculos (company_id, id, placa, renavam, rntrc, uf, tara_kg, capacidade_kg, capacidade_m3, tipo_rodado,
                                    tipo_carroceria, tipo, proprietario, cadastrado_em, atualizado_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
           ON CONFLICT (company_id, id) DO NOTHING`,
          [event.data.company_id, event.data.veiculo_id, ...values(event.data.dados), event.recordedAt],
        );
        return;
      case 'veiculo.alterado':
        await sql.query(
          `UPDATE rm.veiculos SET placa = $3, renavam = $4, rntrc = $5, uf = $6, tara_kg = $7, capacidade_kg = $8, capacidade_m3 = $9,
                  tipo_rodado = $10, tipo_carroceria = $11, tipo = $12, proprietario = $13, atualizado_em = $14
            WHERE company_id = $1 AND id = $2`,
          [event.data.company_id, event.data.veiculo_id, ...values(event.data.dados), event.recordedAt],
        );
        return;
      case 'veiculo.removido':
        await sql.query(
          `UPDATE rm.veiculos SET removido_em = $3, atualizado_em = $3 WHERE company_id = $1 AND id = $2 AND removido_em IS NULL`,
          [event.data.company_id, event.data.veiculo_id, event.recordedAt],
        );
        return;
    }
  },
};
