import './fastify-types';
export * from './plugin';
export * from './deps';
export * from './sessao/sessao';
export * from './sessao/store';
export * from './seguranca';
