export * from './chave';
export * from './montar';
export * from './pendencias';
