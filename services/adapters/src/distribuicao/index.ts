export * from './port';
export * from './mensagens';
export * from './sefaz';
export * from './indisponivel';
