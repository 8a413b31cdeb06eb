export * from './app';
export * from './deps';
export * from './errors';
export * from './documento-openapi';
