import type { LightElement } from './light-dom';

/**
 * C14N 1.0 without comments (http://www.w3.org/TR/2001/REC-xml-c14n-20010315) of an element of the light tree as
 * the apex of the signed node set: the bytes xml-crypto's C14nCanonicalization and xmlsec1 produce for it. The light
 * tree's subset keeps this short: no prefix (the default namespace is the only one in scope, and it is rendered on the
 * apex when not empty and wherever it changes), no `xml:` attribute to inherit, no comment or processing instruction,
 * no carriage return or whitespace to escape in attribute values. What is left: attributes sorted by name (no
 * namespace: by local name), values in double quotes with `&`, `<` and `"` escaped, text with `&`, `<` and `>`
 * escaped, empty elements written as a start and an end tag.
 */
export function canonicalLight(apex: LightElement): string {
  const out: string[] = [];
  render(apex, '', out);
  return out.join('');
}

const TEXT_SPECIAL = /[&<>]/;
const VALUE_SPECIAL = /[&<"]/;
const escapeText = (t: string): string => (TEXT_SPECIAL.test(t) ? t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : t);
const escapeValue = (v: string): string =>
  VALUE_SPECIAL.test(v) ? v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;') : v;

/** Code-unit order, which is code-point order for the ASCII names of the light tree. */
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function render(el: LightElement, inheritedNamespace: string, out: string[]): void {
  const name = el.nodeName;
  const namespace = el.namespaceURI ?? '';
  out.push('<', name);
  if (namespace !== inheritedNamespace) out.push(' xmlns="', namespace, '"');
  const names = el.attributeNames;
  if (names.length === 1) {
    if (names[0] !== 'xmlns') out.push(' ', names[0]!, '="', escapeValue(el.attributeValues[0]!), '"');
  } else if (names.length > 1) {
    const order = names.map((_, i) => i).sort((a, b) => byName(names[a]!, names[b]!));
    for (const i of order) if (names[i] !== 'xmlns') out.push(' ', names[i]!, '="', escapeValue(el.attributeValues[i]!), '"');
  }
  out.push('>');
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3) out.push(escapeText(n.data));
    else render(n, namespace, out);
  }
  out.push('</', name, '>');
}
