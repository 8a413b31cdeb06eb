/**
 * Documents apart from the flows that use them: fiscal XML (DOM helpers, signature, its verification, the official
 * schemas), the printed documents (DACTE, DAMDFE, toll-pass receipt) and the readers of what integrators upload
 * (XML, PDF text, ZIP).
 */
export * from './fiscal-xml';
export * from './impressos/dacte';
export * from './impressos/damdfe';
export * from './impressos/vale-pedagio/recibo';
export * from './leitura/kind';
export * from './leitura/zip';
export * from './leitura/pdf-text';
export * from './leitura/readers';
export * from './leitura/decode-xml';
