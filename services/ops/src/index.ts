export * from './cli';
