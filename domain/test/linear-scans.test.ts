import fc from 'fast-check';
import { MAX_XML_DEPTH, MAX_XML_LENGTH, accessKeyCheckDigit, accessKeysInText, documentKeysOfPages, hostilityOf } from '../src';

/**
 * The one-pass scans over what clients send (issue 11, defect 1): they must answer as the regular expressions they
 * replaced meant to, on every shape of markup, without backtracking.
 */

const nested = (depth: number, open = (i: number) => `<e${i}>`, close = (i: number) => `</e${i}>`) =>
  Array.from({ length: depth }, (_, i) => open(i)).join('') + Array.from({ length: depth }, (_, i) => close(depth - 1 - i)).join('');

describe('hostilityOf', () => {
  it(`lets ${MAX_XML_DEPTH} levels through and refuses one more`, () => {
    expect(hostilityOf(nested(MAX_XML_DEPTH))).toBeNull();
    expect(hostilityOf(nested(MAX_XML_DEPTH + 1))).toBe(`XML nested deeper than ${MAX_XML_DEPTH} levels`);
  });

  it('counts start tags with attributes, namespaces and non-ASCII names; not self-closing ones', () => {
    expect(
      hostilityOf(
        nested(
          MAX_XML_DEPTH + 1,
          (i) => `<ns:e${i} a="1" b='2'>`,
          (i) => `</ns:e${i}>`,
        ),
      ),
    ).not.toBeNull();
    expect(
      hostilityOf(
        nested(
          MAX_XML_DEPTH + 1,
          (i) => `<ção${i}>`,
          (i) => `</ção${i}>`,
        ),
      ),
    ).not.toBeNull();
    expect(hostilityOf('<r>' + '<e a="1"/>'.repeat(1000) + '</r>')).toBeNull();
    expect(hostilityOf(nested(MAX_XML_DEPTH, (i) => `<e${i}><x/>`))).toBeNull();
  });

  it('reads a `>` inside a quoted attribute value as part of the value', () => {
    const deep = nested(MAX_XML_DEPTH + 1, (i) => `<e${i} a="x>y/" b='>'>`);
    expect(hostilityOf(deep)).not.toBeNull();
    // Read without the quotes, `/">` would close each tag as self-closing: nothing would nest.
    expect(hostilityOf(nested(MAX_XML_DEPTH, (i) => `<e${i} a="/">`))).toBeNull();
  });

  it('skips comments, CDATA sections and processing instructions whole', () => {
    const markup = nested(MAX_XML_DEPTH + 5);
    for (const wrapped of [`<!--${markup}-->`, `<![CDATA[${markup}]]>`, `<?pi ${markup}?>`]) {
      expect(hostilityOf(`<?xml version="1.0"?><r>${wrapped}${nested(MAX_XML_DEPTH - 1)}</r>`)).toBeNull();
    }
  });

  it('refuses DOCTYPE and entity declarations anywhere, and text longer than any intake accepts', () => {
    expect(hostilityOf('<r><!-- <!doctype x> --></r>')).toBe('DOCTYPE and entity declarations are not accepted');
    expect(hostilityOf('<r><![CDATA[<!ENTITY a "b">]]></r>')).toBe('DOCTYPE and entity declarations are not accepted');
    expect(hostilityOf(' '.repeat(MAX_XML_LENGTH + 1))).toBe(`XML longer than ${MAX_XML_LENGTH} characters`);
  });

  it('stops at markup that never ends (the parser refuses it as malformed)', () => {
    expect(hostilityOf('<a'.repeat(100_000))).toBeNull();
    expect(hostilityOf('<r a="' + '<a>'.repeat(100))).toBeNull();
    expect(hostilityOf('<r><!--' + '<a>'.repeat(100))).toBeNull();
  });

  it('refuses exactly the trees deeper than the limit (generated trees with attributes, comments and CDATA)', () => {
    type Tree = { name: string; quoted: string; children: Tree[]; extra: 'none' | 'comment' | 'cdata' | 'text' };
    const tree: fc.Memo<Tree> = fc.memo((n) =>
      fc.record({
        name: fc.constantFrom('a', 'ns:b', 'ção', '_x'),
        quoted: fc.constantFrom('', ' v="1"', " w='>'", ' z="/>"'),
        children: n > 1 ? fc.array(tree(n - 1), { maxLength: 3 }) : fc.constant([]),
        extra: fc.constantFrom('none', 'comment', 'cdata', 'text'),
      }),
    );
    const chain = (depth: number): Tree => ({ name: 'c', quoted: '', extra: 'none', children: depth > 1 ? [chain(depth - 1)] : [] });
    const render = (t: Tree): string => {
      const inner =
        t.children.map(render).join('') + { none: '', comment: '<!-- <x><y> -->', cdata: '<![CDATA[<x>]]>', text: 'a &amp; b' }[t.extra];
      return inner ? `<${t.name}${t.quoted}>${inner}</${t.name}>` : `<${t.name}${t.quoted}/>`;
    };
    // Levels as a parser holds them open: an empty element is written self-closing and opens none.
    const depthOf = (t: Tree): number => (t.children.length === 0 && t.extra === 'none' ? 0 : 1 + Math.max(0, ...t.children.map(depthOf)));
    fc.assert(
      fc.property(tree(6), fc.integer({ min: MAX_XML_DEPTH - 8, max: MAX_XML_DEPTH + 2 }), (t, extra) => {
        // A chain under the generated tree puts the depth around the limit.
        const deep: Tree = { ...t, children: [...t.children, chain(extra)] };
        const refused = hostilityOf(render(deep)) !== null;
        expect(refused).toBe(depthOf(deep) > MAX_XML_DEPTH);
      }),
      { numRuns: 200 },
    );
  });
});

describe('access keys in a text', () => {
  const withDigit = (base43: string) => base43 + accessKeyCheckDigit(base43);
  const keys = [
    withDigit('3518083412874500015255001000047428192000749'),
    withDigit('2618087533584900011555001000001687119221333'),
    withDigit('4117070611747300015055001000046320261275652'),
  ];

  /** What the scan replaced: from each token, join the next ones until 44 characters. */
  function reference(text: string): string[] {
    const tokens = text
      .toUpperCase()
      .split(/[^0-9A-Z]+/)
      .filter(Boolean)
      .map((t) => t.replace(/^(?:NFE|CTE|MDFE)(?=\d)/, ''));
    const found: string[] = [];
    for (let i = 0; i < tokens.length; i++) {
      let joined = '';
      for (let j = i; j < tokens.length && joined.length < 44; j++) {
        joined += tokens[j];
        if (joined.length === 44 && accessKeysInText(joined).length === 1 && !found.includes(joined)) found.push(joined);
      }
    }
    return found;
  }

  it('finds what joining tokens finds, in order, on texts mixing keys split in groups with other numbers', () => {
    const piece = fc.oneof(
      fc.constantFrom(...keys).chain((k) => fc.integer({ min: 1, max: 11 }).map((g) => k.match(new RegExp(`.{1,${g}}`, 'g'))!.join(' '))),
      fc.constantFrom(...keys).map((k) => `NFe${k}`),
      fc.stringMatching(/^[0-9]{1,12}$/),
      fc.constantFrom('DANFE', 'CHAVE DE ACESSO', '-', ' / ', 'SÉRIE 001'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join(' ');
        expect(accessKeysInText(text)).toEqual(reference(text));
        expect(documentKeysOfPages([text])).toEqual(reference(text).slice(0, 1));
      }),
      { numRuns: 300 },
    );
  });
});
