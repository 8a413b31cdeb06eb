import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Motorista, Motorista as MotoristaSchema, MotoristaInput, MotoristaListQuery } from '@frete/contracts';
import { type MotoristaRow, motoristaPorId, motoristasList } from '@frete/projections';
import { type ApiDeps } from '../../deps';
import { registroRoutes } from './registro';

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
  registroRoutes(app, deps, {
    path: '/motoristas',
    tag: 'fiscal: motoristas',
    schemas: { input: MotoristaInput, query: MotoristaListQuery, view: MotoristaSchema },
    docs: {
      cadastrar: { summary: 'Registers a driver', description: `201 with the driver and its new integer id. ${DESCRIPTION_BODY}` },
      listar: { summary: 'Lists the company\'s drivers by id' },
      ler: { summary: 'One driver of the company' },
      alterar: {
        summary: 'Replaces the driver\'s data',
        description: `200 with the driver. Every editable field is replaced: an absent field becomes null. ${DESCRIPTION_BODY}`,
      },
      remover: { summary: 'Removes a driver from the registry', description: '204 with no body. The CPF may be registered again afterwards, under a new id.' },
    },
    handler: deps.handlers.motorista,
    porId: motoristaPorId,
    listar: (pool, companyId, q, paging) => motoristasList(pool, companyId, { search: q.search, ...paging }),
    toView: toMotorista,
    naoEncontrado: (id) => `driver ${id} not found`,
  });
};
