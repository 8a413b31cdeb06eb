import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Veiculo, Veiculo as VeiculoSchema, VeiculoInput, VeiculoListQuery } from '@frete/contracts';
import { type VeiculoRow, veiculoPorId, veiculosList } from '@frete/projections';
import { type ApiDeps } from '../../deps';
import { registroRoutes } from './registro';
import { textosDoCadastro } from './registro-textos';

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

const DESCRIPTION_BODY =
  'Only `placa` is required (ruling 20): old `ABC1234` or Mercosur `ABC1D23`, case and hyphen ignored, stored ' +
  'upper case without hyphen. `renavam` 9–11 digits with its check digit (stored padded to 11); `rntrc` 8 digits; `tipo_rodado` tpRod ' +
  '01–06; `tipo_carroceria` tpCar 00–05; `tipo` `tracao` (default) or `reboque`; `proprietario` null for the own fleet, otherwise ' +
  '`{ documento (CPF or CNPJ), nome, rntrc, ie?, uf?, tipo_proprietario (tpProp 0 TAC agregado, 1 TAC independente, 2 outros) }`.';

/** The company's vehicles (MDF-e `veicTracao`/`veicReboque`), with integer ids per company. */
export const veiculosRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) =>
    registroRoutes(app, deps, {
      path: '/veiculos',
      tag: 'Frota',
      handler: deps.handlers.veiculo,
      porId: veiculoPorId,
      listar: veiculosList,
      toView: toVeiculo,
      schemas: { input: VeiculoInput, query: VeiculoListQuery, view: VeiculoSchema },
      ...textosDoCadastro({
        nome: 'vehicle',
        plural: 'vehicles',
        chave: 'plate',
        duplicado: 'veiculo_duplicado',
        corpo: DESCRIPTION_BODY,
        operationIds: {
          cadastrar: 'cadastrarVeiculo',
          listar: 'listarVeiculos',
          ler: 'obterVeiculo',
          alterar: 'alterarVeiculo',
          remover: 'removerVeiculo',
        },
      }),
    });
