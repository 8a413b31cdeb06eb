export * from './services';
export * from './container';
export * from './demo';
export * from './ops-server';
