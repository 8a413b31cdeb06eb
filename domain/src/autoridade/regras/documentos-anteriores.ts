import { isValidAccessKey } from '../../fiscal/access-key';
import { cnpjRoot } from '../../fiscal/documents';

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
 * keys ("Facult."): they are not applied here. Answers every cStat the group fails, in the manual's order.
 */
export function falhasDocumentosAnteriores(d: DocumentosAnteriores): number[] {
  if (d.tpCTe !== '0' && d.tpCTe !== '3') return [];
  const falhas = new Set<number>();
  if (['1', '2', '3'].includes(d.tpServ) && !d.temDocAnt) falhas.add(521);
  if (d.tpServ === '0' && d.temDocAnt) falhas.add(747);
  const vistas = new Set<string>();
  for (const emissor of d.emissores) {
    for (const chave of emissor.chaves) {
      if (vistas.has(chave)) falhas.add(543);
      vistas.add(chave);
      if (!isValidAccessKey(chave) || chave.slice(20, 22) !== '57') falhas.add(844);
      else if (chave.slice(6, 20) !== emissor.documento) falhas.add(733);
    }
    if (emissor.chaves.length > 0 && (!d.tomador || cnpjRoot(d.tomador) !== cnpjRoot(emissor.documento))) falhas.add(745);
  }
  return ORDEM.filter((c) => falhas.has(c));
}

/** G059 521, G060 747, G061 543, G062 733, G063 745, G065 844. */
const ORDEM = [521, 747, 543, 733, 745, 844];

/** The first rejection of the group (the authority stops at the first), or null. */
export function recusaDocumentosAnteriores(d: DocumentosAnteriores): number | null {
  return falhasDocumentosAnteriores(d)[0] ?? null;
}
