/**
 * The local authority server (`pnpm authority`): the fiscal authorities' SOAP web services over mutual TLS, in front
 * of the simulated authority's rules. Tests and integrators start it with `iniciarAutoridadeLocal`.
 */
export * from './autoridade-local';
export * from './falhas/falhas';
export { CAMINHO_FALHAS } from './falhas/admin';
export { CAMINHO_AMBIENTE_NACIONAL_NFE } from './distribuicao/admin';
export { SCHEMA_RETORNO, servicoAnDoCaminho } from './distribuicao/servico';
export { rotaDe, type Rota } from './rotas/caminhos';
export { ufsAtendidas } from './rotas/autorizadores';
export { LIMITE_CORPO } from './rotas/corpo';
export { MAXIMO_DESCOMPACTADO } from './servicos/recepcao';
export * from './tls/certificados';
