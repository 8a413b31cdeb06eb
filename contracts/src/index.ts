export * from './errors';
export * from './events';
export * from './http/common';
export * from './http/configuracao';
export * from './http/certificado';
export * from './http/status';
export * from './http/oauth';
