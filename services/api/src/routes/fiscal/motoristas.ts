import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Motorista, Motorista as MotoristaSchema, MotoristaInput, MotoristaListQuery } from '@frete/contracts';
import { type MotoristaRow, motoristaPorId, motoristasList } from '@frete/projections';
import { type ApiDeps } from '../../deps';
import { registroRoutes } from './registro';
import { textosDoCadastro } from './registro-textos';

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

const DESCRIPTION_BODY =
  '`cpf` and `nome` are required (ruling 20); CPF with or without punctuation, check digits validated, stored as ' +
  '11 digits. `telefone` 10–11 digits, optionally after +55 (stored +55…). `chave_pix` `{ tipo: cpf|cnpj|email|telefone|aleatoria, valor }` ' +
  'validated per type (phone key `+55` and 10–11 digits, random key a UUID). `repasse` `{ modo: automatico|manual, parcelas: ' +
  '[{ posicao 1..3, percentual, dias 0..30 }] }`: positions unique and consecutive from 1, percentages (two decimals) summing exactly 100, ' +
  'at most 3; when absent, `modo` is `automatico` and `parcelas` empty (ruling 14: a single installment of 100% at position 1, dias 0, ' +
  'applies at payout).';

/** The company's drivers (MDF-e `condutor`; payout recipients), with integer ids per company. */
export const motoristasRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) =>
    registroRoutes(app, deps, {
      path: '/motoristas',
      tag: 'Frota',
      handler: deps.handlers.motorista,
      porId: motoristaPorId,
      listar: motoristasList,
      toView: toMotorista,
      schemas: { input: MotoristaInput, query: MotoristaListQuery, view: MotoristaSchema },
      ...textosDoCadastro({
        nome: 'driver',
        plural: 'drivers',
        chave: 'CPF',
        duplicado: 'motorista_duplicado',
        corpo: DESCRIPTION_BODY,
        operationIds: {
          cadastrar: 'cadastrarMotorista',
          listar: 'listarMotoristas',
          ler: 'obterMotorista',
          alterar: 'alterarMotorista',
          remover: 'removerMotorista',
        },
      }),
    });
