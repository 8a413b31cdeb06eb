import {
  CTE_XML,
  type CteLido,
  type FiscalXmlDocument,
  type FiscalXmlLayout,
  lerCteDo,
  MAX_XML_DEPTH,
  readCte,
  type XmlNode,
} from '@frete/domain';
import { type LightElement, LightText, readLightDom } from './light-dom';

/** A tree the plain reading leaves to the general one. */
const OUTRO = Symbol('outro');

/**
 * An element in the shape fast-xml-parser gives the domain's readers (see `fiscalXmlParser`): children by tag (a tag
 * of `arrays`, or one that repeats, as a list), attributes as `@_name` (no `xmlns`), text trimmed, as `#text` beside
 * attributes, '' when empty. Mixed content and trees deeper than the readers accept are left to the general reading.
 */
function comoNo(el: LightElement, arrays: ReadonlySet<string>, profundidade: number): XmlNode | string | typeof OUTRO {
  if (profundidade > MAX_XML_DEPTH) return OUTRO;
  let texto = '';
  let filhos = false;
  const no: XmlNode = {};
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n instanceof LightText) {
      texto += n.data;
      continue;
    }
    filhos = true;
    const valor = comoNo(n, arrays, profundidade + 1);
    if (valor === OUTRO) return OUTRO;
    const nome = n.nodeName;
    const atual = no[nome];
    if (arrays.has(nome)) {
      if (Array.isArray(atual)) atual.push(valor);
      else no[nome] = [valor];
    } else if (atual === undefined) no[nome] = valor;
    else no[nome] = Array.isArray(atual) ? [...(atual as unknown[]), valor] : [atual, valor];
  }
  const t = texto.trim();
  if (filhos && t !== '') return OUTRO;
  let atributos = 0;
  el.attributeNames.forEach((nome, i) => {
    if (nome === 'xmlns') return;
    no[`@_${nome}`] = el.attributeValues[i]!;
    atributos++;
  });
  if (!filhos && atributos === 0) return t;
  if (t !== '') no['#text'] = t;
  return no;
}

/**
 * A fiscal document this service wrote (the signed CT-e in its `cteProc`), read by the light DOM the signature already
 * uses instead of fast-xml-parser, several times cheaper: the tree `fiscalXmlParser(layout)` gives, or null when the
 * text leaves the light DOM's plain subset (or nests too deep, or mixes text and elements) and must take the general
 * reading, with its checks for what strangers send.
 */
export function documentoFiscalLeve(xml: string, layout: FiscalXmlLayout): FiscalXmlDocument | null {
  const raiz = readLightDom(xml)?.documentElement;
  if (!raiz) return null;
  const valor = comoNo(raiz, new Set(layout.arrays), 1);
  if (valor === OUTRO || typeof valor === 'string') return null;
  const doc: XmlNode = { [raiz.nodeName]: valor };
  const proc = raiz.nodeName === layout.proc ? valor : null;
  const root = proc ? proc[layout.root] : doc[layout.root];
  if (!root || typeof root !== 'object' || Array.isArray(root)) return null;
  return { proc, root: root as XmlNode };
}

/** A CT-e this service signed (bare or in its `cteProc`), read as `readCte` reads it: through the light DOM when it can. */
export function lerCteEmitido(xml: string): CteLido {
  const doc = documentoFiscalLeve(xml, CTE_XML);
  return doc ? lerCteDo(doc) : readCte(xml);
}
