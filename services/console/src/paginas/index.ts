import { type FastifyInstance } from 'fastify';
import { type ConsoleDeps } from '../deps';
import { inicio } from './inicio';
import { cte } from './cte';
import { mdfe } from './mdfe';
import { caixaDeEntrada } from './caixa-de-entrada';
import { lotes } from './lotes';
import { parcelas } from './parcelas';
import { ciot } from './ciot';
import { valePedagio } from './vale-pedagio';
import { configuracao } from './configuracao';
import { cadastros } from './cadastros';
import { integracao } from './integracao';
import { entrar } from './entrar';
import { conta } from './conta';
import { usuarios } from './usuarios';

/** One module per area of the panel; each registers its pages on the /console instance. */
export type RegistrarPaginas = (app: FastifyInstance, deps: ConsoleDeps) => Promise<void> | void;

export const paginas: RegistrarPaginas[] = [
  inicio,
  cte,
  mdfe,
  caixaDeEntrada,
  lotes,
  parcelas,
  ciot,
  valePedagio,
  configuracao,
  cadastros,
  integracao,
  entrar,
  conta,
  usuarios,
];
