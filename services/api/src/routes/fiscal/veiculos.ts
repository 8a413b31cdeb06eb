import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataEnvelope, ListEnvelope, RegistroParams, type Veiculo, Veiculo as VeiculoSchema, VeiculoInput, VeiculoListQuery } from '@frete/contracts';
import { veiculoDecider, veiculosStream } from '@frete/domain';
import { type VeiculoRow, veiculoPorId, veiculosList } from '@frete/projections';
import { execute } from '@frete/application';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { listOf, pageOf } from '../../paging';

const TAG = 'fiscal: veiculos';

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

/** A path id: a positive integer, or nothing (which answers 404 like an unknown one). */
export const registroId = (raw: string): number | null => (/^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : null);

const DESCRIPTION_BODY = 'Only `placa` is required (ruling 20): old `ABC1234` or Mercosur `ABC1D23`, case and hyphen ignored, stored ' +
  'upper case without hyphen. `renavam` 9–11 digits with its check digit (stored padded to 11); `rntrc` 8 digits; `tipo_rodado` tpRod ' +
  '01–06; `tipo_carroceria` tpCar 00–05; `tipo` `tracao` (default) or `reboque`; `proprietario` null for the own fleet, otherwise ' +
  '`{ documento (CPF or CNPJ), nome, rntrc, ie?, uf?, tipo_proprietario (tpProp 0 TAC agregado, 1 TAC independente, 2 outros) }`. ' +
  '400 `validacao` names each invalid field in `error.details.fields`; 422 `veiculo_duplicado` when another active vehicle of the ' +
  'company has the plate.';

/** The company's vehicles (MDF-e `veicTracao`/`veicReboque`), with integer ids per company. */
export const veiculosRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  const env = deps.config.environment;

  const readBack = async (companyId: string, id: number): Promise<Veiculo> => {
    await deps.readYourWrites.waitFor(companyId);
    const row = await veiculoPorId(deps.pool, companyId, id);
    if (!row) throw new Error(`read model has no vehicle ${id} after the wait`);
    return toVeiculo(row);
  };

  const idOf = (raw: string): number => {
    const id = registroId(raw);
    if (id === null) throw new ApiError('nao_encontrado', `vehicle ${raw} not found`);
    return id;
  };

  app.post('/veiculos', {
    schema: {
      tags: [TAG],
      summary: 'Registers a vehicle',
      description: `201 with the vehicle and its new integer id. ${DESCRIPTION_BODY}`,
      body: VeiculoInput,
      response: { 201: DataEnvelope(VeiculoSchema), ...errors(400, 422) },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const { events } = await execute(deps, veiculosStream(p.companyId), veiculoDecider, {
      type: 'CadastrarVeiculo', company_id: p.companyId, dados: request.body,
    }, commandContext(request, deps));
    const created = events[0];
    if (!created || created.type !== 'veiculo.cadastrado') throw new Error('register appended no veiculo.cadastrado');
    return reply.status(201).send({ data: await readBack(p.companyId, created.data.veiculo_id), environment: env });
  });

  app.get('/veiculos', {
    schema: {
      tags: [TAG],
      summary: 'Lists the company\'s vehicles by id',
      querystring: VeiculoListQuery,
      response: { 200: ListEnvelope(VeiculoSchema), ...errors(400) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const paging = pageOf(request.query);
    await deps.readYourWrites.waitFor(p.companyId);
    const { rows, total } = await veiculosList(deps.pool, p.companyId, { search: request.query.search, ...paging });
    return listOf(rows.map(toVeiculo), paging, total, env);
  });

  app.get('/veiculos/:id', {
    schema: {
      tags: [TAG],
      summary: 'One vehicle of the company',
      params: RegistroParams,
      response: { 200: DataEnvelope(VeiculoSchema), ...errors(404) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const id = idOf(request.params.id);
    await deps.readYourWrites.waitFor(p.companyId);
    const row = await veiculoPorId(deps.pool, p.companyId, id);
    if (!row) throw new ApiError('nao_encontrado', `vehicle ${id} not found`);
    return { data: toVeiculo(row), environment: env };
  });

  app.put('/veiculos/:id', {
    schema: {
      tags: [TAG],
      summary: 'Replaces the vehicle\'s data',
      description: `200 with the vehicle. Every editable field is replaced: an absent field becomes null. ${DESCRIPTION_BODY}`,
      params: RegistroParams,
      body: VeiculoInput,
      response: { 200: DataEnvelope(VeiculoSchema), ...errors(400, 404, 422) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const id = idOf(request.params.id);
    await execute(deps, veiculosStream(p.companyId), veiculoDecider, {
      type: 'AlterarVeiculo', company_id: p.companyId, veiculo_id: id, dados: request.body,
    }, commandContext(request, deps));
    return { data: await readBack(p.companyId, id), environment: env };
  });

  app.delete('/veiculos/:id', {
    schema: {
      tags: [TAG],
      summary: 'Removes a vehicle from the registry',
      description: '204 with no body. The plate may be registered again afterwards, under a new id.',
      params: RegistroParams,
      response: { 204: Type.Null({ description: 'Removed' }), ...errors(404) },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const id = idOf(request.params.id);
    await execute(deps, veiculosStream(p.companyId), veiculoDecider, {
      type: 'RemoverVeiculo', company_id: p.companyId, veiculo_id: id,
    }, commandContext(request, deps));
    return reply.status(204).send(null);
  });
};
