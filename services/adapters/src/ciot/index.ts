export * from './port';
export * from './sentinelas';
export * from './simulado';
export * from './indisponivel';
