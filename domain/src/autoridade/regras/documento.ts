import { fiscalXmlParser } from '../../xml/fiscal-xml';
import { text, type XmlNode } from '../../xml/nodes';

/**
 * A fiscal document as the authority rules read it: the unsigned (or signed: the signature is not read) CT-e 4.00 or
 * MDF-e 3.00 XML, parsed once into plain data. Repeated tags are read as lists wherever they appear (`lista`), so the
 * rules need no list of which tags repeat.
 */

export type ModeloRegras = 'cte' | 'mdfe';

export interface DocumentoFiscal {
  modelo: ModeloRegras;
  /** `infCte` / `infMDFe`. */
  inf: XmlNode;
}

/** Why the XML could not be read: the authority's 243 (malformed) or a document of another kind. */
export class DocumentoIlegivel extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentoIlegivel';
  }
}

const LAYOUTS = {
  cte: { proc: 'cteProc', root: 'CTe', inf: 'infCte' },
  mdfe: { proc: 'mdfeProc', root: 'MDFe', inf: 'infMDFe' },
} as const;

const PARSERS = {
  cte: fiscalXmlParser({ proc: 'cteProc', root: 'CTe', arrays: [] }, (_r, m) => new DocumentoIlegivel(m)),
  mdfe: fiscalXmlParser({ proc: 'mdfeProc', root: 'MDFe', arrays: [] }, (_r, m) => new DocumentoIlegivel(m)),
};

export function lerDocumentoFiscal(modelo: ModeloRegras, xml: string): DocumentoFiscal {
  const { root } = PARSERS[modelo](xml);
  const inf = lista(root[LAYOUTS[modelo].inf])[0];
  if (!inf) throw new DocumentoIlegivel(`no ${LAYOUTS[modelo].inf}`);
  return { modelo, inf };
}

/** A tag's value(s) as a list of elements: absent → [], once → [it], repeated → all. Text-only elements count too. */
export function lista(v: unknown): XmlNode[] {
  if (v === undefined || v === null) return [];
  const itens = Array.isArray(v) ? v : [v];
  return itens.map((i) => (i !== null && typeof i === 'object' ? (i as XmlNode) : { '#text': String(i) }));
}

/** Every element reached by `caminho`, following every repetition on the way. */
export function nos(el: XmlNode | null | undefined, ...caminho: string[]): XmlNode[] {
  let nivel = el ? [el] : [];
  for (const passo of caminho) nivel = nivel.flatMap((e) => lista(e[passo]));
  return nivel;
}

/** The first element reached by `caminho`, or null. */
export const no = (el: XmlNode | null | undefined, ...caminho: string[]): XmlNode | null => nos(el, ...caminho)[0] ?? null;

/** The text of the first element reached by `caminho`; null when there is none. */
export const texto = (el: XmlNode | null | undefined, ...caminho: string[]): string | null => {
  const n = no(el, ...caminho);
  return n ? (text(n) ?? '') : null;
};

/** The texts of every element reached by `caminho`. */
export const textos = (el: XmlNode | null | undefined, ...caminho: string[]): string[] => nos(el, ...caminho).map((n) => text(n) ?? '');

/** An attribute of `el`. */
export const atributo = (el: XmlNode | null | undefined, nome: string): string | null => {
  const v = el?.[`@_${nome}`];
  return v === undefined || v === null ? null : String(v);
};
