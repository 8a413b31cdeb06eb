export * from './services';
export * from './composition';
export * from './demo';
export * from './ops-server';
