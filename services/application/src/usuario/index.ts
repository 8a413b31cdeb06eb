export * from './handler';
export { codigoTotp } from './segredos';
export { JANELA_S, MAX_POR_EMAIL, MAX_POR_IP } from './tentativas';
