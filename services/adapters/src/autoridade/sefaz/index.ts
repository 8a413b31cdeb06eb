export * from './autorizadores';
export * from './roteamento';
export * from './soap';
