/**
 * The outside parties, one folder each: the port (what the product needs of the party) with its adapters side by
 * side — simulated (homologação), unavailable (production until a provider is contracted, ruling 7) and, where one
 * exists, the real one. `ambiente.ts` picks the adapter for the deployment's environment.
 */
export * from './provedor-indisponivel';
export * from './autoridade';
export * from './ciot';
export * from './regulador';
export * from './diretorio-pix';
export * from './vale-pedagio';
export * from './banco/rail';
export * from './distribuicao';
