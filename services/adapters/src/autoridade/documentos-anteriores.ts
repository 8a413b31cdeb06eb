import { cnpjRoot, isValidAccessKey } from '@frete/domain';

/** What the previous-documents rules read from a CT-e (`infCTeNorm/docAnt` and the taker). */
export interface DocumentosAnteriores {
  tpCTe: string;
  tpServ: string;
  /** The taker's CNPJ (or CPF) by `toma3`/`toma4`; null when the document names none. */
  tomador: string | null;
  /** `emiDocAnt`: the issuer of the previous documents and the electronic ones' keys (`idDocAntEle/chCTe`). */
  emissores: { documento: string; chaves: string[] }[];
  temDocAnt: boolean;
}

/**
 * MOC 4.00 Anexo I, validations of previous documents (G059–G063, G065): the rules that make a subcontracting,
 * redispatch or counter-CT-e valid. G064 needs the authority's register of CT-e issuers and G066–G069 its base of
 * keys ("Facult."): the simulated authority does not apply them. Returns the rejection cStat, or null.
 */
export function recusaDocumentosAnteriores(d: DocumentosAnteriores): number | null {
  if (d.tpCTe !== '0' && d.tpCTe !== '3') return null;
  if (['1', '2', '3'].includes(d.tpServ) && !d.temDocAnt) return 521;
  if (d.tpServ === '0' && d.temDocAnt) return 747;
  const vistas = new Set<string>();
  for (const emissor of d.emissores) {
    for (const chave of emissor.chaves) {
      if (vistas.has(chave)) return 543;
      vistas.add(chave);
      if (!isValidAccessKey(chave) || chave.slice(20, 22) !== '57') return 844;
      if (chave.slice(6, 20) !== emissor.documento) return 733;
    }
    if (emissor.chaves.length > 0 && (!d.tomador || cnpjRoot(d.tomador) !== cnpjRoot(emissor.documento))) return 745;
  }
  return null;
}
