/** Moved to the authority rule set (domain/src/autoridade/regras), which the simulated authority and the previews run. */
export { type DocumentosAnteriores, recusaDocumentosAnteriores } from '@frete/domain';
