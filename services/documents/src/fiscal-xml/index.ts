export * from './dom';
export * from './sign';
export * from './verify';
export * from './schema';
export * from './leitura-leve';
