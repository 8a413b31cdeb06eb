/**
 * The application layer: one command-handler module per aggregate (load, decide, append, with the context), used by
 * routes and processors alike, and the long-running flows (emission, batch processing, payout registration) beside
 * the aggregate they drive.
 */
export * from './commands/execute';
export * from './commands/state-cache';
export * from './cte/preparar';
export * from './cte/emissor';
export * from './cte/montar-xml';
export * from './cte/eventos';
export * from './mdfe/emissor';
export * from './mdfe/montar-xml';
export * from './emissao/emissor';
export * from './emissao/assinar';
export * from './emissao/evento';
export * from './emissao/handler';
export * from './cte/handler';
export * from './mdfe/handler';
export * from './ciot/servico';
export * from './vale-pedagio/servico';
export * from './contra-cte/servico';
export * from './lote/processador';
export * from './operator/operator';
export * from './credential/handler';
export * from './repasse/deps';
export * from './repasse/contra-cte';
export * from './repasse/registrar';
export * from './repasse/cancelamento';
export * from './repasse/liquidar';
export * from './application';
export * from './commands/handles';
export * from './handlers';
export * from './configuracao/handler';
export * from './autorizacao/handler';
export * from './certificado/handler';
export * from './convite/handler';
export * from './repasse/handler';
export * from './repasse/documento';
export * from './ciot/handler';
export * from './lote/reconciliar';
export * from './lote/transcrever';
export * from './solicitacao-lote/handler';
export * from './cte/handler';
export * from './cte-subcontratacao/handler';
export * from './contra-cte/handler';
export * from './lote/handler';
export * from './nfe/handler';
export * from './nfe/importacao';
export * from './cadastros/handler';
export * from './autoridade/fabrica';
export * from './autoridade/status';
export * from './contingencia/handler';
export * from './cte/leituras';
export * from './auditoria/servico';
export * from './webhook';
export * from './mdfe/damdfe';
export * from './usuario';
