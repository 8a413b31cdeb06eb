export * from './app';
export * from './deps';
export * from './errors';
export * from './request-id';
export * from './documento-openapi';
