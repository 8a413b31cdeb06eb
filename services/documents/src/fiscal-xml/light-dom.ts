import type { XmlDocument, XmlElement, XmlNode } from './dom';

/**
 * The tree of a fiscal document in the plain shape the service writes (many documents from elsewhere have it too),
 * read by one targeted scan instead of xmldom, which cost more than the cryptography of a signature (issue 14). It
 * offers the part of the DOM the signing and checking code reads (see dom.ts), so those checks run unchanged on
 * either tree.
 *
 * It reads a strict subset of XML on purpose, one where its tree is the tree xmldom builds and where C14N 1.0 has
 * no corner to cut (c14n.ts): an optional XML declaration first; elements and attributes with plain ASCII names,
 * no prefix and none starting with "xml" but the default namespace declaration `xmlns`; text and attribute values
 * with only the five predefined entity references; whitespace only around the root. No comment, CDATA, processing
 * instruction, DOCTYPE, character reference, carriage return (line ends would be normalised), tab or line break in
 * an attribute value (attribute values would be normalised), `]]>` or character XML forbids. Whatever departs from
 * it, malformed text included, is answered with null: the caller then parses with xmldom and takes the generic
 * path, which accepts or refuses as it always did.
 */

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const DOCUMENT_NODE = 9;

const LT = 0x3c;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;

/** Characters XML 1.0 forbids, lone surrogates, and the carriage return (normalised away by parsers). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const FORBIDDEN = /[\x00-\x08\x0B-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const DECLARATION =
  /<\?xml version=(?:"1\.0"|'1\.0')(?: encoding=(?:"[Uu][Tt][Ff]-8"|'[Uu][Tt][Ff]-8'))?(?: standalone=(?:"(?:yes|no)"|'(?:yes|no)'))? ?\?>/y;
const BLANKS = /[ \t\n]*/y;
const NAME = /[A-Za-z_][A-Za-z0-9_.-]*/y;
const ATTRIBUTE = /[ \t\n]+([A-Za-z_][A-Za-z0-9_.-]*)[ \t\n]*=[ \t\n]*(?:"([^"]*)"|'([^']*)')/y;
const TAG_END = /[ \t\n]*(\/?)>/y;
const END_TAG_END = /[ \t\n]*>/y;
const RESERVED = /^xml/i;
const ENTITY = /&(amp|lt|gt|quot|apos);/g;
const BAD_TEXT = /&(?!(?:amp|lt|gt|quot|apos);)|\]\]>/;
const BAD_VALUE = /[<\t\n]|&(?!(?:amp|lt|gt|quot|apos);)/;
const ONLY_BLANKS = /^[ \t\n]*$/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const decode = (raw: string): string => (raw.includes('&') ? raw.replace(ENTITY, (_, name: string) => ENTITIES[name]!) : raw);

export class LightText implements XmlNode {
  readonly nodeType = TEXT_NODE;
  readonly nodeName = '#text';
  readonly localName = null;
  readonly namespaceURI = null;
  readonly firstChild = null;
  nextSibling: LightNode | null = null;
  constructor(
    readonly parentNode: LightElement,
    /** The text, entity references resolved. */
    readonly data: string,
  ) {}
  get textContent(): string {
    return this.data;
  }
}

export class LightElement implements XmlElement {
  readonly nodeType = ELEMENT_NODE;
  firstChild: LightNode | null = null;
  lastChild: LightNode | null = null;
  nextSibling: LightNode | null = null;
  /** Offset of the `<` of its end tag in the text read (-1 when the element is written as an empty-element tag). */
  endTagOffset = -1;
  constructor(
    readonly nodeName: string,
    /** The default namespace in scope (the element has no prefix), null when there is none. */
    readonly namespaceURI: string | null,
    readonly parentNode: LightElement | LightDocument,
    /** Attribute names in document order, `xmlns` included (as xmldom keeps it), and their values resolved. */
    readonly attributeNames: readonly string[],
    readonly attributeValues: readonly string[],
  ) {}
  get localName(): string {
    return this.nodeName;
  }
  /** As xmldom answers: the empty string for an attribute the element does not have. */
  getAttribute(name: string): string {
    const i = this.attributeNames.indexOf(name);
    return i < 0 ? '' : this.attributeValues[i]!;
  }
  hasAttribute(name: string): boolean {
    return this.attributeNames.includes(name);
  }
  get textContent(): string {
    let text = '';
    for (let n = this.firstChild; n; n = n.nextSibling) text += n.textContent;
    return text;
  }
}

export type LightNode = LightElement | LightText;

export class LightDocument implements XmlDocument {
  readonly nodeType = DOCUMENT_NODE;
  readonly nodeName = '#document';
  readonly localName = null;
  readonly namespaceURI = null;
  readonly parentNode = null;
  readonly nextSibling = null;
  readonly textContent = null;
  documentElement: LightElement | null = null;
  /** Every element in document order. */
  readonly elements: LightElement[] = [];
  get firstChild(): LightElement | null {
    return this.documentElement;
  }
  getElementsByTagName(name: string): { readonly length: number; item(index: number): LightElement | null } {
    const found = name === '*' ? this.elements : this.elements.filter((el) => el.nodeName === name);
    return { length: found.length, item: (i) => found[i] ?? null };
  }
}

function append(parent: LightElement, child: LightNode): void {
  if (parent.lastChild) parent.lastChild.nextSibling = child;
  else parent.firstChild = child;
  parent.lastChild = child;
}

/** The tree of `xml` when it lies within the plain subset described above, null otherwise. */
export function readLightDom(xml: string): LightDocument | null {
  if (FORBIDDEN.test(xml)) return null;
  let i = 0;
  if (xml.startsWith('<?')) {
    DECLARATION.lastIndex = 0;
    if (!DECLARATION.test(xml)) return null;
    i = DECLARATION.lastIndex;
  }
  BLANKS.lastIndex = i;
  BLANKS.test(xml);
  i = BLANKS.lastIndex;
  if (xml.charCodeAt(i) !== LT) return null;

  const doc = new LightDocument();
  let open: LightElement | null = null;
  for (;;) {
    // Here xml[i] is '<'.
    const next = xml.charCodeAt(i + 1);
    if (next === SLASH) {
      NAME.lastIndex = i + 2;
      const name = NAME.exec(xml)?.[0];
      if (!open || name !== open.nodeName) return null;
      END_TAG_END.lastIndex = NAME.lastIndex;
      if (!END_TAG_END.test(xml)) return null;
      open.endTagOffset = i;
      i = END_TAG_END.lastIndex;
      open = open.parentNode instanceof LightElement ? open.parentNode : null;
      if (!open) return ONLY_BLANKS.test(xml.slice(i)) ? doc : null;
    } else {
      NAME.lastIndex = i + 1;
      const name = NAME.exec(xml)?.[0];
      if (!name || RESERVED.test(name)) return null;
      let at = NAME.lastIndex;
      const names: string[] = [];
      const values: string[] = [];
      let namespace = open ? open.namespaceURI : null;
      for (;;) {
        ATTRIBUTE.lastIndex = at;
        const a = ATTRIBUTE.exec(xml);
        if (!a) break;
        const attribute = a[1]!;
        const raw = a[2] ?? a[3]!;
        if (names.includes(attribute) || BAD_VALUE.test(raw)) return null;
        if (attribute === 'xmlns') {
          // Written out as it is by C14N implementations that do not escape namespace URIs: keep them plain.
          if (raw.includes('&') || raw.includes('"')) return null;
          namespace = raw || null;
        } else if (RESERVED.test(attribute)) return null;
        names.push(attribute);
        values.push(decode(raw));
        at = ATTRIBUTE.lastIndex;
      }
      TAG_END.lastIndex = at;
      const end = TAG_END.exec(xml);
      if (!end) return null;
      i = TAG_END.lastIndex;
      const el: LightElement = new LightElement(name, namespace, open ?? doc, names, values);
      doc.elements.push(el);
      // With nothing open this is the root: the walk ends when the root closes.
      if (open) append(open, el);
      else doc.documentElement = el;
      if (end[1]) {
        if (!open) return ONLY_BLANKS.test(xml.slice(i)) ? doc : null;
      } else open = el;
    }
    // Text up to the next tag, then the tag: no comment, CDATA, declaration or processing instruction.
    if (!open) return null;
    const lt = xml.indexOf('<', i);
    if (lt < 0) return null;
    if (lt > i) {
      const raw = xml.slice(i, lt);
      if (BAD_TEXT.test(raw)) return null;
      append(open, new LightText(open, decode(raw)));
    }
    const after = xml.charCodeAt(lt + 1);
    if (after === BANG || after === QUESTION) return null;
    i = lt;
  }
}
