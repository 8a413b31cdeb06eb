import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Veiculo, Veiculo as VeiculoSchema, VeiculoInput, VeiculoListQuery } from '@frete/contracts';
import { type VeiculoRow, veiculoPorId, veiculosList } from '@frete/projections';
import { type ApiDeps } from '../../deps';
import { registroRoutes } from './registro';

export const toVeiculo = (row: VeiculoRow): Veiculo => ({
  id: row.id,
  placa: row.placa,
  renavam: row.renavam,
  rntrc: row.rntrc,
  uf: row.uf,
  tara_kg: row.tara_kg,
  capacidade_kg: row.capacidade_kg,
  capacidade_m3: row.capacidade_m3,
  tipo_rodado: row.tipo_rodado,
  tipo_carroceria: row.tipo_carroceria,
  tipo: row.tipo,
  proprietario: row.proprietario,
  cadastrado_em: row.cadastrado_em.toISOString(),
  atualizado_em: row.atualizado_em.toISOString(),
});

const DESCRIPTION_BODY = 'Only `placa` is required (ruling 20): old `ABC1234` or Mercosur `ABC1D23`, case and hyphen ignored, stored ' +
  'upper case without hyphen. `renavam` 9–11 digits with its check digit (stored padded to 11); `rntrc` 8 digits; `tipo_rodado` tpRod ' +
  '01–06; `tipo_carroceria` tpCar 00–05; `tipo` `tracao` (default) or `reboque`; `proprietario` null for the own fleet, otherwise ' +
  '`{ documento (CPF or CNPJ), nome, rntrc, ie?, uf?, tipo_proprietario (tpProp 0 TAC agregado, 1 TAC independente, 2 outros) }`. ' +
  '400 `validacao` names each invalid field in `error.details.fields`; 422 `veiculo_duplicado` when another active vehicle of the ' +
  'company has the plate.';

/** The company's vehicles (MDF-e `veicTracao`/`veicReboque`), with integer ids per company. */
export const veiculosRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  registroRoutes(app, deps, {
    path: '/veiculos',
    tag: 'fiscal: veiculos',
    schemas: { input: VeiculoInput, query: VeiculoListQuery, view: VeiculoSchema },
    docs: {
      cadastrar: { summary: 'Registers a vehicle', description: `201 with the vehicle and its new integer id. ${DESCRIPTION_BODY}` },
      listar: { summary: 'Lists the company\'s vehicles by id' },
      ler: { summary: 'One vehicle of the company' },
      alterar: {
        summary: 'Replaces the vehicle\'s data',
        description: `200 with the vehicle. Every editable field is replaced: an absent field becomes null. ${DESCRIPTION_BODY}`,
      },
      remover: { summary: 'Removes a vehicle from the registry', description: '204 with no body. The plate may be registered again afterwards, under a new id.' },
    },
    handler: deps.handlers.veiculo,
    porId: veiculoPorId,
    listar: (pool, companyId, { search }, paging) => veiculosList(pool, companyId, { search, ...paging }),
    toView: toVeiculo,
    naoEncontrado: (id) => `vehicle ${id} not found`,
  });
};
