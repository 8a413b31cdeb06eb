export { XMLDSIG_NS, C14N_10, ENVELOPED_SIGNATURE, RSA_SHA1, SHA1 } from './dom';
export * from './sign';
export * from './verify';
export * from './schema';
