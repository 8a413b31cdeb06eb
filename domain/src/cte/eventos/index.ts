export * from './montar';
export * from './vedados';
export * from './regras';
