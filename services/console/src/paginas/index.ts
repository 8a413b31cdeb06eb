import { type FastifyInstance } from 'fastify';
import { type ConsoleDeps } from '../deps';
import { inicio } from './inicio';
import { entrar } from './entrar';
import { conta } from './conta';
import { usuarios } from './usuarios';

/** One module per area of the panel; each registers its pages on the /console instance. */
export type RegistrarPaginas = (app: FastifyInstance, deps: ConsoleDeps) => Promise<void> | void;

export const paginas: RegistrarPaginas[] = [inicio, entrar, conta, usuarios];
