export * from './autorizadores';
export * from './roteamento';
export * from './soap';
export * from './adapter';
export * from './transporte';
export * from './canal';
