import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { C14nCanonicalization, ExclusiveCanonicalization } from 'xml-crypto';
import { montarCteXml } from '@frete/domain';
import { parseFiscalXml, type XmlDocument, type XmlElement, type XmlNode } from '@frete/documents';
import { canonicalLight } from '../../services/documents/src/fiscal-xml/c14n';
import { type LightElement, readLightDom } from '../../services/documents/src/fiscal-xml/light-dom';
import { montarInput } from '../support/cte-montar';
import { XMLLINT, requireTool } from '../support/xmlsec';

/**
 * Issue 14: signing and checking read documents of the plain shape with a light tree and canonicalise them without
 * a DOM. The claim that makes this safe is checked here: on every document the light reader accepts, its tree is
 * the one xmldom builds (what the profile checks read), and its C14N of every element is xml-crypto's, byte for byte
 * (the C14N the generic pipeline uses), inclusive and exclusive alike (no prefix: they agree), and libxml2's
 * (`xmllint --c14n`, what xmlsec1 runs) for the whole document. Documents outside the subset are refused by the
 * reader, so that xmldom and xml-crypto decide them as before.
 */

const INCLUSIVE = new C14nCanonicalization();
const EXCLUSIVE = new ExclusiveCanonicalization();
const withXmllint = requireTool(XMLLINT, 'xmllint', 'libxml2-utils');

function xmlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? xmlFiles(path.join(dir, e.name)) : /\.xml$/i.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

const ROOT = path.join(__dirname, '..', '..');
/** The project's fixtures and, where the machine has them, the shared public samples (real authority documents). */
const SAMPLES = [...xmlFiles(path.join(ROOT, 'test', 'fixtures')), ...xmlFiles(path.join(ROOT, '..', 'shared', 'fixtures', 'samples'))].map(
  (file) => ({ name: path.relative(ROOT, file), xml: readFileSync(file, 'utf8') }),
);

/** The CT-e the service builds, numbered `i`; every other one with markup characters in its observations. */
const built = (i: number) => {
  const input = montarInput({ numero: 1 + i, cCT: String(10_000_000 + i * 7).slice(-8) });
  if (i % 2) input.dados = { ...input.dados, observacoes: 'A & B <C> "D" \'E\' ÇÃ €' };
  return montarCteXml(input).xml;
};

function xmldomDoc(xml: string): XmlDocument {
  const parsed = parseFiscalXml(xml);
  if ('refused' in parsed) throw new Error(`xmldom refused what the light reader accepted: ${parsed.message}`);
  return parsed.doc;
}

interface Shape {
  name: string;
  localName: string | null;
  namespace: string | null;
  attributes: [string, string][];
  text: string | null;
  children: (Shape | string)[];
}

/** The tree as the checks see it through the shared DOM interface (and the attribute list, as each tree keeps it). */
function shape(el: XmlElement, attributeNames: (el: XmlElement) => string[]): Shape {
  const children: (Shape | string)[] = [];
  for (let n: XmlNode | null = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) children.push(shape(n as XmlElement, attributeNames));
    else if (n.nodeType === 3) children.push(n.textContent ?? '');
    else throw new Error(`unexpected node type ${n.nodeType}`);
  }
  return {
    name: el.nodeName,
    localName: el.localName,
    namespace: el.namespaceURI || null, // no namespace: xmldom says undefined, or '' under xmlns=""
    attributes: attributeNames(el).map((a) => [a, el.getAttribute(a) ?? '']),
    text: el.textContent,
    children,
  };
}
const lightNames = (el: XmlElement) => [...(el as LightElement).attributeNames];
const xmldomNames = (el: XmlElement) => {
  const attributes = (el as unknown as { attributes: { length: number; item(i: number): { name: string } } }).attributes;
  return Array.from({ length: attributes.length }, (_, i) => attributes.item(i).name);
};

/** Every element of both trees, in document order, paired. */
function pairs(light: XmlDocument, dom: XmlDocument): [LightElement, XmlElement][] {
  const a = light.getElementsByTagName('*');
  const b = dom.getElementsByTagName('*');
  expect(a.length).toBe(b.length);
  return Array.from({ length: a.length }, (_, i) => [a.item(i) as LightElement, b.item(i)!]);
}

/** What the light path must agree with, on a document it accepts: the tree, and the C14N of every element. */
function expectSameAsXmlCrypto(xml: string): number {
  const light = readLightDom(xml);
  expect(light).not.toBeNull();
  const dom = xmldomDoc(xml);
  expect(shape(light!.documentElement!, lightNames)).toEqual(shape(dom.documentElement!, xmldomNames));
  const elements = pairs(light!, dom);
  for (const [l, d] of elements) {
    const ours = canonicalLight(l);
    expect(ours).toBe(INCLUSIVE.process(d as never, { ancestorNamespaces: [], defaultNsForPrefix: {} }));
    expect(ours).toBe(EXCLUSIVE.process(d as never, { inclusiveNamespacesPrefixList: [], defaultNsForPrefix: {} }));
  }
  return elements.length;
}

describe('the light reader and its C14N against xmldom and xml-crypto', () => {
  it('agree on every element of every sample the light reader accepts, real authority documents among them', () => {
    const accepted = SAMPLES.filter((s) => readLightDom(s.xml));
    let elements = 0;
    for (const s of accepted) elements += expectSameAsXmlCrypto(s.xml);
    // Pretty-printed, with whitespace text between elements; NF-e, CT-e and MDF-e with their signatures and protocols.
    expect(accepted.map((s) => path.basename(s.name))).toEqual(
      expect.arrayContaining(['minimo-v4.00.xml', 'cte_hom_com_prot.xml', 'NFe35200159594315000157550010000000012062777161.xml']),
    );
    // 2,142 elements in the project's own fixtures alone; the shared samples, where the machine has them, add 9,602.
    expect(elements).toBeGreaterThanOrEqual(2142);
  });

  it('agree on the CT-e the service builds, escaped characters and accents included', () => {
    for (let i = 0; i < 40; i++) expectSameAsXmlCrypto(built(i));
    expect(built(1)).toContain('<xObs>A &amp; B &lt;C&gt; &quot;D&quot; &apos;E&apos; ÇÃ</xObs>');
  });

  (withXmllint ? it : it.skip)("agree with libxml2's C14N (xmllint --c14n) on whole documents", () => {
    const documents = [...SAMPLES.map((s) => s.xml).filter((xml) => readLightDom(xml)), built(1), built(2)];
    for (const xml of documents) {
      const r = spawnSync('xmllint', ['--c14n', '--nonet', '-'], { input: xml, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(canonicalLight(readLightDom(xml)!.documentElement!)).toBe(r.stdout);
    }
  });

  // Documents generated within the subset, written every way the subset allows: quoting, entity references, blanks in
  // tags, empty-element tags, default namespaces declared, changed and undeclared.
  it('agree on generated documents: attribute order, escaping, namespaces, blanks, empty elements', () => {
    const chars = fc.constantFrom('a', 'Z', '0', ' ', '\n', '&', '<', '>', '"', "'", 'ç', 'Ã', '€', '😀', ']');
    const valueChars = fc.constantFrom('a', 'Z', '0', ' ', '&', '<', '>', '"', "'", 'ç', '😀', ']');
    const text = fc.array(chars, { maxLength: 8 }).map((c) => c.join(''));
    const blank = fc.constantFrom('', ' ', '\n', '\t', ' \n ');
    const escapeText = (t: string, gt: boolean, quote: boolean) =>
      t
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, gt ? '&gt;' : '>')
        .replace(/"/g, quote ? '&quot;' : '"')
        .replace(/'/g, quote ? '&apos;' : "'");
    const attribute = fc.record({
      name: fc.constantFrom('Id', 'ID', 'id', 'versao', 'a', 'B', 'x.y', '_z', 'a-1'),
      value: fc.array(valueChars, { maxLength: 6 }).map((c) => c.join('')),
      single: fc.boolean(),
      gt: fc.boolean(),
      before: blank,
      around: fc.constantFrom('=', ' = ', '\n=\t'),
    });
    const element = fc.letrec<{ node: string }>((tie) => ({
      node: fc
        .record({
          name: fc.constantFrom('CTe', 'infCte', 'ide', 'a', 'B', 'c_1', 'd.e', 'f-g'),
          namespace: fc.option(fc.constantFrom('', 'http://www.portalfiscal.inf.br/cte', 'urn:x:y', "http://q'x"), { nil: undefined }),
          attributes: fc.uniqueArray(attribute, { maxLength: 4, selector: (a) => a.name }),
          children: fc.array(
            fc.oneof(
              { maxDepth: 4, depthIdentifier: 'xml' },
              text.map((t) => ({ t })),
              tie('node'),
            ),
            { maxLength: 4 },
          ),
          selfClose: fc.boolean(),
          gt: fc.boolean(),
          quote: fc.boolean(),
          tagBlank: blank,
        })
        .map((e) => {
          const ns = e.namespace === undefined ? '' : ` xmlns="${e.namespace}"`;
          const attrs = e.attributes
            .map((a) => {
              const q = a.single ? "'" : '"';
              const v = a.value
                .replace(/&/g, '&amp;')
                .replace(/</g, '&lt;')
                .replace(/>/g, a.gt ? '&gt;' : '>');
              const quoted = a.single ? v.replace(/'/g, '&apos;') : v.replace(/"/g, '&quot;');
              return ` ${a.before}${a.name}${a.around}${q}${quoted}${q}`;
            })
            .join('');
          const start = `<${e.name}${ns}${attrs}${e.tagBlank}`;
          if (e.children.length === 0 && e.selfClose) return `${start}/>`;
          const inner = e.children.map((c) => (typeof c === 'string' ? c : escapeText(c.t, e.gt, e.quote))).join('');
          return `${start}>${inner}</${e.name}>`;
        }),
    })).node;
    const documento = fc.tuple(fc.constantFrom('', '<?xml version="1.0" encoding="UTF-8"?>', "<?xml version='1.0'?>\n"), element, blank);
    let accepted = 0;
    fc.assert(
      fc.property(documento, ([declaration, root, tail]) => {
        const xml = `${declaration}${root}${tail}`;
        if (!readLightDom(xml)) return;
        accepted++;
        expectSameAsXmlCrypto(xml);
      }),
      { numRuns: 400 },
    );
    // Only `]]>` in text and a text child written where no text could start keep a generated document out.
    expect(accepted).toBeGreaterThan(300);
  });
});

describe('the light reader refuses what lies outside its subset (xmldom and the generic path decide it)', () => {
  const base = '<?xml version="1.0" encoding="UTF-8"?><CTe xmlns="urn:cte"><infCte Id="CTe1" versao="4.00"><a>x</a><b/></infCte></CTe>';

  it('reads the plain base document', () => {
    expect(readLightDom(base)?.documentElement?.nodeName).toBe('CTe');
    expect(readLightDom(`\n${base.replace(/^<\?xml[^>]*>/, '')}\n`)).not.toBeNull();
  });

  const outside: [string, string][] = [
    ['a comment', base.replace('<a>', '<!-- c --><a>')],
    ['a comment before the root', base.replace('<CTe', '<!-- c --><CTe')],
    ['CDATA', base.replace('<a>x</a>', '<a><![CDATA[x]]></a>')],
    ['a processing instruction', base.replace('<a>', '<?pi x?><a>')],
    ['a DOCTYPE', base.replace('<CTe', '<!DOCTYPE CTe><CTe')],
    ['a character reference', base.replace('<a>x</a>', '<a>&#120;</a>')],
    ['a hexadecimal character reference in an attribute', base.replace('Id="CTe1"', 'Id="CTe&#x31;"')],
    ['an undeclared entity', base.replace('<a>x</a>', '<a>&nbsp;</a>')],
    ['a bare ampersand', base.replace('<a>x</a>', '<a>x & y</a>')],
    ['a carriage return', base.replace('<b/>', '\r\n<b/>')],
    ['a tab in an attribute value', base.replace('versao="4.00"', 'versao="4.\t00"')],
    ['a line break in an attribute value', base.replace('versao="4.00"', 'versao="4.\n00"')],
    ['a prefixed element', base.replace('<a>x</a>', '<ds:a xmlns:ds="urn:ds">x</ds:a>')],
    ['a prefixed namespace declaration', base.replace('<CTe xmlns="urn:cte">', '<CTe xmlns="urn:cte" xmlns:x="urn:x">')],
    ['an xml: attribute', base.replace('<a>', '<a xml:lang="pt">')],
    ['a name starting with xml', base.replace('<b/>', '<xmlb/>')],
    ['a non-ASCII name', base.replace('<b/>', '<é/>')],
    ['a namespace URI with a reference', base.replace('xmlns="urn:cte"', 'xmlns="urn:a&amp;b"')],
    ['a duplicate attribute', base.replace('versao="4.00"', 'versao="4.00" versao="4.00"')],
    ['attributes without blanks between them', base.replace('Id="CTe1" versao', 'Id="CTe1"versao')],
    ['an unquoted attribute', base.replace('versao="4.00"', 'versao=4.00')],
    ['a mismatched end tag', base.replace('</a>', '</b>')],
    ['an unclosed element', base.replace('</CTe>', '')],
    ['text after the root', `${base}x`],
    ['a second root', `${base}<CTe/>`],
    [']]> in text', base.replace('<a>x</a>', '<a>x]]>y</a>')],
    ['a control character', base.replace('<a>x</a>', '<a>x\u0001</a>')],
    ['a lone surrogate', base.replace('<a>x</a>', '<a>x\uD800</a>')],
    ['a byte-order mark', `\uFEFF${base}`],
    ['a declaration in another encoding', base.replace('UTF-8', 'ISO-8859-1')],
    ['a declaration not first', ` ${base}`],
    ['a stray <', base.replace('<a>x</a>', '<a>x < y</a>')],
    ['an empty document', ''],
  ];
  it.each(outside)('refuses %s', (_, xml) => {
    expect(xml).not.toBe(base);
    expect(readLightDom(xml)).toBeNull();
  });
});
