import { type DocumentoFiscal, type ModeloRegras } from './documento';

/** What the rules know besides the document: the receiving authority's setting and the moment of reception. */
export interface ContextoRegras {
  /** The environment of the web service receiving the document (G001/252). */
  tpAmb: 1 | 2;
  /** The moment of reception (G102/212, G103/228); rules that need it are skipped when absent. */
  agora?: Date;
  /** The IBGE codes of the UFs the receiving authority serves (226); not checked when absent (the preview). */
  ufsAtendidas?: ReadonlySet<string>;
}

/**
 * One of the authority's validations: its status code and the manual's text, where the manual lists it, and a
 * check over the parsed document. `verificar` answers null when the document passes, else a detail (possibly '')
 * that the authority appends to xMotivo (`[chNFe: …]`).
 */
export interface RegraAutoridade {
  /** The manual's rule id (`G014`), or a short name where the manual gives none. */
  regra: string;
  cStat: number;
  xMotivo: string;
  fonte: string;
  aplica: ModeloRegras;
  verificar: (doc: DocumentoFiscal, ctx: ContextoRegras) => string | null;
}

/** A rule the document fails: what the authority would answer. */
export interface RejeicaoPrevista {
  cStat: number;
  /** The manual's text, with the detail the authority appends, capped at 255 characters (`TMotivo`). */
  xMotivo: string;
  regra: string;
  fonte: string;
}
