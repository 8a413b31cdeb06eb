export * from './port';
export * from './mensagens';
export * from './sefaz';
export * from './indisponivel';
export * from './ambiente-nacional';
export * from './simulado';
