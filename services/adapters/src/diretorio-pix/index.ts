export * from './port';
export * from './simulado';
export * from './indisponivel';
