export * from './destino';
export * from './segredos';
export * from './entregas';
export * from './despachante';
export * from './handler';
