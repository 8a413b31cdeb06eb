import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataEnvelope, ListEnvelope, RegistroParams, type Motorista, Motorista as MotoristaSchema, MotoristaInput, MotoristaListQuery } from '@frete/contracts';
import { motoristaDecider, motoristasStream } from '@frete/domain';
import { type MotoristaRow, motoristaPorId, motoristasList } from '@frete/projections';
import { execute } from '@frete/application';
import { ApiError } from '../../errors';
import { registroId } from './veiculos';
import { errors } from '../../schemas';
import { commandContext, principalOf } from '../../command-context';
import { type ApiDeps } from '../../deps';
import { listOf, pageOf } from '../../paging';

const TAG = 'fiscal: motoristas';

export const toMotorista = (row: MotoristaRow): Motorista => ({
  id: row.id,
  cpf: row.cpf,
  nome: row.nome,
  telefone: row.telefone,
  chave_pix: row.chave_pix,
  repasse: row.repasse,
  cadastrado_em: row.cadastrado_em.toISOString(),
  atualizado_em: row.atualizado_em.toISOString(),
});

const DESCRIPTION_BODY = '`cpf` and `nome` are required (ruling 20); CPF with or without punctuation, check digits validated, stored as ' +
  '11 digits. `telefone` 10–11 digits, optionally after +55 (stored +55…). `chave_pix` `{ tipo: cpf|cnpj|email|telefone|aleatoria, valor }` ' +
  'validated per type (phone key `+55` and 10–11 digits, random key a UUID). `repasse` `{ modo: automatico|manual, parcelas: ' +
  '[{ posicao 1..3, percentual, dias 0..30 }] }`: positions unique and consecutive from 1, percentages (two decimals) summing exactly 100, ' +
  'at most 3; when absent, `modo` is `automatico` and `parcelas` empty (ruling 14: a single installment of 100% at position 1, dias 0, ' +
  'applies at payout). 400 `validacao` names each invalid field in `error.details.fields`; 422 `motorista_duplicado` when another ' +
  'active driver of the company has the CPF.';

/** The company's drivers (MDF-e `condutor`; payout recipients), with integer ids per company. */
export const motoristasRoutes = (deps: ApiDeps): FastifyPluginAsyncTypebox => async (app) => {
  const env = deps.config.environment;

  const readBack = async (companyId: string, id: number): Promise<Motorista> => {
    await deps.readYourWrites.waitFor(companyId);
    const row = await motoristaPorId(deps.pool, companyId, id);
    if (!row) throw new Error(`read model has no driver ${id} after the wait`);
    return toMotorista(row);
  };

  const idOf = (raw: string): number => {
    const id = registroId(raw);
    if (id === null) throw new ApiError('nao_encontrado', `driver ${raw} not found`);
    return id;
  };

  app.post('/motoristas', {
    schema: {
      tags: [TAG],
      summary: 'Registers a driver',
      description: `201 with the driver and its new integer id. ${DESCRIPTION_BODY}`,
      body: MotoristaInput,
      response: { 201: DataEnvelope(MotoristaSchema), ...errors(400, 422) },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const { events } = await execute(deps, motoristasStream(p.companyId), motoristaDecider, {
      type: 'CadastrarMotorista', company_id: p.companyId, dados: request.body,
    }, commandContext(request, deps));
    const created = events[0];
    if (!created || created.type !== 'motorista.cadastrado') throw new Error('register appended no motorista.cadastrado');
    return reply.status(201).send({ data: await readBack(p.companyId, created.data.motorista_id), environment: env });
  });

  app.get('/motoristas', {
    schema: {
      tags: [TAG],
      summary: 'Lists the company\'s drivers by id',
      querystring: MotoristaListQuery,
      response: { 200: ListEnvelope(MotoristaSchema), ...errors(400) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const paging = pageOf(request.query);
    await deps.readYourWrites.waitFor(p.companyId);
    const { rows, total } = await motoristasList(deps.pool, p.companyId, { search: request.query.search, ...paging });
    return listOf(rows.map(toMotorista), paging, total, env);
  });

  app.get('/motoristas/:id', {
    schema: {
      tags: [TAG],
      summary: 'One driver of the company',
      params: RegistroParams,
      response: { 200: DataEnvelope(MotoristaSchema), ...errors(404) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const id = idOf(request.params.id);
    await deps.readYourWrites.waitFor(p.companyId);
    const row = await motoristaPorId(deps.pool, p.companyId, id);
    if (!row) throw new ApiError('nao_encontrado', `driver ${id} not found`);
    return { data: toMotorista(row), environment: env };
  });

  app.put('/motoristas/:id', {
    schema: {
      tags: [TAG],
      summary: 'Replaces the driver\'s data',
      description: `200 with the driver. Every editable field is replaced: an absent field becomes null. ${DESCRIPTION_BODY}`,
      params: RegistroParams,
      body: MotoristaInput,
      response: { 200: DataEnvelope(MotoristaSchema), ...errors(400, 404, 422) },
    },
  }, async (request) => {
    const p = principalOf(request);
    const id = idOf(request.params.id);
    await execute(deps, motoristasStream(p.companyId), motoristaDecider, {
      type: 'AlterarMotorista', company_id: p.companyId, motorista_id: id, dados: request.body,
    }, commandContext(request, deps));
    return { data: await readBack(p.companyId, id), environment: env };
  });

  app.delete('/motoristas/:id', {
    schema: {
      tags: [TAG],
      summary: 'Removes a driver from the registry',
      description: '204 with no body. The CPF may be registered again afterwards, under a new id.',
      params: RegistroParams,
      response: { 204: Type.Null({ description: 'Removed' }), ...errors(404) },
    },
  }, async (request, reply) => {
    const p = principalOf(request);
    const id = idOf(request.params.id);
    await execute(deps, motoristasStream(p.companyId), motoristaDecider, {
      type: 'RemoverMotorista', company_id: p.companyId, motorista_id: id,
    }, commandContext(request, deps));
    return reply.status(204).send(null);
  });
};
