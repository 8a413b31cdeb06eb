export * from './port';
export * from './codigos';
export * from './sentinelas';
export * from './proc';
export * from './simulada';
export * from './indisponivel';
export * from './sefaz';
export * from './medida';
