import { type VeiculoDados } from '@frete/contracts';
import { registroProjector } from '../registro';

/** Vehicles of each company: a row per id; removal keeps the row with its time. */
export const veiculoProjector = registroProjector<VeiculoDados>({
  name: 'veiculo',
  table: 'rm.veiculos',
  prefix: 'veiculo',
  idField: 'veiculo_id',
  columns: [
    'placa',
    'renavam',
    'rntrc',
    'uf',
    'tara_kg',
    'capacidade_kg',
    'capacidade_m3',
    'tipo_rodado',
    'tipo_carroceria',
    'tipo',
    'proprietario',
  ],
  values: (d) => [
    d.placa,
    d.renavam,
    d.rntrc,
    d.uf,
    d.tara_kg,
    d.capacidade_kg,
    d.capacidade_m3,
    d.tipo_rodado,
    d.tipo_carroceria,
    d.tipo,
    d.proprietario === null ? null : JSON.stringify(d.proprietario),
  ],
});
