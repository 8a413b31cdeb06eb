export * from './montar';
export * from './evento';
