import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { excerpt } from './excerpt';
import { hostilityOf } from './hostile';
import { illegalXmlChar } from './chars';
import { node, type XmlNode } from './nodes';

/** Why the raw XML was refused; each reader maps these onto its own error class and codes. */
export type FiscalXmlRefusal = 'xml_hostil' | 'xml_malformado' | 'not_this_document';

export interface FiscalXmlLayout {
  /** The wrapper with the authorization protocol, e.g. `cteProc`. */
  proc: string;
  /** The document, bare or inside `proc`, e.g. `CTe`. */
  root: string;
  /** Tags that may repeat, read as lists even when they appear once so readers need not tell the cases apart. */
  arrays: readonly string[];
}

export interface FiscalXmlDocument {
  proc: XmlNode | null;
  root: XmlNode;
}

/**
 * The prologue every fiscal reader runs, in this order so hostile input costs no parsing work: refuse hostile
 * text, refuse malformed XML, parse, then find `proc` or a bare `root`. Build one per layout at module load:
 * the parser is reused across calls.
 */
export function fiscalXmlParser(
  layout: FiscalXmlLayout,
  refuse: (refusal: FiscalXmlRefusal, message: string) => Error,
): (xml: string) => FiscalXmlDocument {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    // Fiscal values are read as text: keys, codes and amounts must keep their leading zeros and exact digits.
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    htmlEntities: false,
    isArray: (name) => layout.arrays.includes(name),
  });
  return (xml) => {
    const hostile = hostilityOf(xml);
    if (hostile) throw refuse('xml_hostil', hostile);
    const illegal = illegalXmlChar(xml);
    if (illegal) throw refuse('xml_malformado', illegal);
    const valid = XMLValidator.validate(xml);
    // The parser's message quotes the offending markup, which may be most of the input: repeat only its start.
    if (valid !== true) throw refuse('xml_malformado', `malformed XML at line ${valid.err.line}: ${excerpt(valid.err.msg, 120)}`);
    const doc = parser.parse(xml) as XmlNode;
    const proc = node(doc[layout.proc]);
    const root = node(proc ? proc[layout.root] : doc[layout.root]);
    if (!root) {
      const found = Object.keys(doc).find((k) => !k.startsWith('?')) ?? '(none)';
      throw refuse('not_this_document', `expected ${layout.proc} or ${layout.root}, found ${excerpt(found)}`);
    }
    return { proc, root };
  };
}
