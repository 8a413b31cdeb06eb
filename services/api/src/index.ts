export * from './app';
export * from './deps';
export * from './errors';
