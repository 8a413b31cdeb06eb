/**
 * The outside parties, one folder each: the port (what the product needs of the party) with its adapters side by
 * side — simulated (homologação), unavailable (production until a provider is contracted, ruling 7) and, where one
 * exists, the real one. Which one a process uses is chosen in one place, `adaptadoresDe` (`@frete/application`).
 */
export * from './provedor-indisponivel';
export * from './autoridade';
export * from './ciot';
export * from './regulador';
export * from './diretorio-pix';
export * from './vale-pedagio';
export * from './banco/rail';
export * from './distribuicao';
