import { hostilityOf } from '@frete/domain';
import { readLightDom } from './light-dom';

/**
 * The part of the W3C DOM this module uses, as xmldom (the DOM xml-crypto works on) implements it. xmldom's own
 * typings pull the browser DOM library into the whole TypeScript program (`/// <reference lib="dom" />`), which
 * changes Node's types elsewhere, so it is loaded untyped and described here.
 */
export interface XmlNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly localName: string | null;
  readonly namespaceURI: string | null;
  readonly parentNode: XmlNode | null;
  readonly firstChild: XmlNode | null;
  readonly nextSibling: XmlNode | null;
  readonly textContent: string | null;
}
export interface XmlElement extends XmlNode {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}
export interface XmlDocument extends XmlNode {
  readonly documentElement: XmlElement | null;
  getElementsByTagName(name: string): { readonly length: number; item(index: number): XmlElement | null };
}
interface XmldomModule {
  DOMParser: new (options: { errorHandler: Record<'warning' | 'error' | 'fatalError', (message: string) => void> }) => {
    parseFromString(xml: string, mimeType: string): XmlDocument;
  };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DOMParser } = require('@xmldom/xmldom') as XmldomModule;

/** The XML-DSig profile of CT-e, MDF-e and their events (MOC 4.00 / MOC MDF-e 3.00, "Padrão de assinatura digital"). */
export const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const C14N_10 = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
export const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
export const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
/** In this order, as the authority's schema (`xmldsig-core-schema_v1.01.xsd`: exactly two) and its signers write them. */
export const FISCAL_TRANSFORMS = [ENVELOPED_SIGNATURE, C14N_10] as const;

/** Element names and Id values go into XPath expressions: only plain names (no quotes, brackets or operators). */
export const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const ELEMENT_NODE = 1;

/**
 * Parses with xmldom (the DOM xml-crypto works on), refusing hostile input first and treating every parser
 * complaint, warnings included, as malformed XML. Returns the reason instead of the document when refused.
 */
export function parseFiscalXml(xml: string): ParsedFiscalXml {
  const hostile = hostilityOf(xml);
  if (hostile) return { refused: 'hostile_xml', message: hostile };
  return parseWithXmldom(xml);
}

export type ParsedFiscalXml = { doc: XmlDocument } | { refused: 'hostile_xml' | 'malformed_xml'; message: string };

/**
 * The document as signing and checking read it: the light tree (light-dom.ts) when the text lies within its plain
 * subset, xmldom's otherwise; hostile and malformed input refused as parseFiscalXml refuses it.
 */
export function parseForSignature(xml: string): ParsedFiscalXml {
  const hostile = hostilityOf(xml);
  if (hostile) return { refused: 'hostile_xml', message: hostile };
  const light = readLightDom(xml);
  return light ? { doc: light } : parseWithXmldom(xml);
}

/**
 * `</name >` (blanks before the `>`, legal XML) written as `</name>`. xmldom 0.8 guesses which elements are left
 * unclosed by looking for the literal `</name>` and keeps its first answer per name, so such an end tag on the last
 * element of a name makes it close an earlier one early and complain. Blanks inside an end tag mean nothing; comments,
 * CDATA sections and processing instructions are copied as they are. One pass, forward only.
 */
export function withBareEndTags(xml: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  for (;;) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) break;
    const closer = xml.startsWith('<!--', lt) ? '-->' : xml.startsWith('<![CDATA[', lt) ? ']]>' : xml.startsWith('<?', lt) ? '?>' : null;
    if (closer) {
      const end = xml.indexOf(closer, lt + 2);
      if (end < 0) break;
      i = end + closer.length;
      continue;
    }
    i = lt + 1;
    if (xml[lt + 1] !== '/') continue;
    const gt = xml.indexOf('>', lt);
    if (gt < 0) break;
    const inner = xml.slice(lt + 2, gt);
    const name = inner.trimEnd();
    if (name.length !== inner.length && name.length > 0 && !/[\s<]/.test(name)) {
      out += xml.slice(copied, lt) + '</' + name + '>';
      copied = gt + 1;
    }
    i = gt + 1;
  }
  return copied === 0 ? xml : out + xml.slice(copied);
}

function parseWithXmldom(xml: string): ParsedFiscalXml {
  const complaints: string[] = [];
  const complain = (message: string) => {
    complaints.push(message.trim());
  };
  let doc: XmlDocument;
  try {
    doc = new DOMParser({ errorHandler: { warning: complain, error: complain, fatalError: complain } }).parseFromString(
      withBareEndTags(xml),
      'text/xml',
    );
  } catch (error) {
    return { refused: 'malformed_xml', message: error instanceof Error ? error.message : String(error) };
  }
  if (complaints.length > 0 || !doc?.documentElement) {
    return { refused: 'malformed_xml', message: complaints[0] ?? 'no root element' };
  }
  return { doc };
}

/**
 * Which element is signed: a local name (`infCte`), or a parent's and the element's (`eventoCTe/infEvento`) where
 * the document holds more than one element of that name (a `procEventoCTe` has `infEvento` in the event and in
 * the authority's answer).
 */
export interface ElementSpec {
  name: string;
  parent?: string;
}

export function elementSpec(spec: string): ElementSpec | null {
  const parts = spec.split('/');
  if (parts.length > 2 || !parts.every((part) => SAFE_NAME.test(part))) return null;
  return parts.length === 2 ? { parent: parts[0]!, name: parts[1]! } : { name: parts[0]! };
}

/** Every element `spec` designates, in document order. */
export function elementsNamed(doc: XmlDocument, spec: ElementSpec): XmlElement[] {
  const found: XmlElement[] = [];
  const all = doc.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    const el = all.item(i)!;
    if ((el.localName ?? el.nodeName) !== spec.name) continue;
    if (spec.parent !== undefined && !(isElement(el.parentNode) && (el.parentNode.localName ?? el.parentNode.nodeName) === spec.parent))
      continue;
    found.push(el);
  }
  return found;
}

/** The element children of `parent`, in order. */
export function childElements(parent: XmlNode): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (isElement(n)) out.push(n);
  return out;
}

export const isElement = (n: XmlNode | null | undefined): n is XmlElement => !!n && n.nodeType === ELEMENT_NODE;

/** The `ds:Signature` children of `parent`. */
export function signatureChildren(parent: XmlNode): XmlElement[] {
  return childElements(parent).filter((el) => el.localName === 'Signature' && el.namespaceURI === XMLDSIG_NS);
}

/** How many elements carry `value` in an attribute named Id, ID or id (the attributes xml-crypto resolves references by). */
export function countIds(doc: XmlDocument, value: string): number {
  let count = 0;
  const all = doc.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    const el = all.item(i)!;
    for (const name of ['Id', 'ID', 'id']) if (el.hasAttribute(name) && el.getAttribute(name) === value) count++;
  }
  return count;
}

/** PEM body (base64 without headers or line breaks) of a certificate PEM. */
export function pemBody(pem: string): string {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem);
  if (!match) throw new Error('not a PEM certificate');
  return match[1]!.replace(/\s+/g, '');
}

/** A PEM certificate from base64 DER, in 64-character lines. */
export function pemFromBase64(base64: string): string {
  const body = base64.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}
