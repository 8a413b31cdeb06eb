import { type MotoristaDados } from '@frete/contracts';
import { registroProjector } from '../registro';
import { searchable } from '../search';

/** Drivers of each company: a row per id; removal keeps the row with its time. */
export const motoristaProjector = registroProjector<MotoristaDados>({
  name: 'motorista',
  table: 'rm.motoristas',
  prefix: 'motorista',
  idField: 'motorista_id',
  columns: ['cpf', 'nome', 'nome_busca', 'telefone', 'chave_pix', 'repasse_modo', 'repasse_parcelas'],
  values: (d) => [
    d.cpf,
    d.nome,
    searchable(d.nome),
    d.telefone,
    d.chave_pix === null ? null : JSON.stringify(d.chave_pix),
    d.repasse.modo,
    JSON.stringify(d.repasse.parcelas),
  ],
});
