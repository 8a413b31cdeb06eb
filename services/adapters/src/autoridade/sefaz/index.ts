export * from './autorizadores';
export * from './roteamento';
