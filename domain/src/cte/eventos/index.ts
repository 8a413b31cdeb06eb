export * from './montar';
export * from './vedados';
export * from './regras';
export * from './correcoes';
