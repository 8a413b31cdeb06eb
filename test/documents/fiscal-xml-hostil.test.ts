import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { montarCteXml } from '@frete/domain';
import { parseFiscalXml, signFiscalXml, verifyFiscalSignature, type FiscalSignatureCheck } from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { readLightDom } from '../../services/documents/src/fiscal-xml/light-dom';
import { withBareEndTags } from '../../services/documents/src/fiscal-xml/dom';
import { cnpjFrom, makeA1 } from '../support/certificates';
import { montarInput } from '../support/cte-montar';
import { XMLSEC1, requireTool, xmlsecVerify } from '../support/xmlsec';

/**
 * Issue 14: documents of the plain shape are signed and checked on the light tree (light-dom.ts, c14n.ts), the others
 * by xmldom and xml-crypto's generic pipeline. Hostile input must never be accepted by the fast path where the generic
 * one refuses it: each attack here is first shown to be read by the light tree (so the fast path is what decides),
 * then refused, with the same answer as the generic path gives for the same document. A comment before the root sends
 * a document down the generic path (the light reader refuses comments, and so does the direct profile on xmldom),
 * without touching what is signed.
 */

const SENHA = 'senha-do-a1';
const a1 = makeA1({ cnpj: cnpjFrom('112223330001'), razao: 'TRANSPORTADORA EXEMPLO LTDA', password: SENHA, cnpjIn: 'otherName' });
const { privateKeyPem, certificatePem } = readPkcs12(a1.pfx, SENHA);
const intruso = makeA1({ cnpj: cnpjFrom('998887770001'), razao: 'INTRUSO', password: SENHA, cnpjIn: 'otherName', keyIndex: 1 });
const intrusoKeys = readPkcs12(intruso.pfx, SENHA);
const withXmlsec = requireTool(XMLSEC1, 'xmlsec1', 'xmlsec1');

const CTE = readFileSync(path.join(__dirname, '..', 'fixtures', 'cte', 'minimo-v4.00.xml'), 'utf8');
const ID = /Id="(CTe\d{44})"/.exec(CTE)![1]!;
const sign = (xml: string, element = 'infCte', keys = { privateKeyPem, certificatePem }) => signFiscalXml(xml, { element, ...keys });
const verify = (xml: string, element = 'infCte'): FiscalSignatureCheck => verifyFiscalSignature(xml, { element });
const signed = sign(CTE);
const signatureOf = (xml: string) => /<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">.*?<\/Signature>/s.exec(xml)![0];
const infCteOf = (xml: string) => /<infCte[ >].*?<\/infCte>/s.exec(xml)![0];

/** The same document down the generic path: a comment after the declaration, outside anything signed. */
function generic(xml: string): string {
  const declaration = /^<\?xml[^>]*\?>/.exec(xml);
  const at = declaration ? declaration[0].length : 0;
  return `${xml.slice(0, at)}<!-- generic -->${xml.slice(at)}`;
}

/** The fast path's answer, after checking that it is the fast path that answers, and that the generic one agrees. */
function fastAnswer(xml: string, element = 'infCte'): FiscalSignatureCheck {
  expect(readLightDom(xml)).not.toBeNull();
  const fast = verify(xml, element);
  const slow = verify(generic(xml), element);
  expect(readLightDom(generic(xml))).toBeNull();
  expect(fast).toEqual(slow);
  return fast;
}

describe('the fast path refuses what the generic path refuses', () => {
  it('accepts the plain signed CT-e, as the generic path and xmlsec1 do', () => {
    expect(fastAnswer(signed)).toEqual({ valid: true, certificatePem: expect.any(String) });
    if (withXmlsec) expect(xmlsecVerify(signed, { element: 'infCte', trustedPem: a1.caCertificatePem }).ok).toBe(true);
  });

  it('accepts what only changes outside the canonical form: attribute order and quotes, blanks in tags, entity spelling', () => {
    const rewritten = signed
      .replace(`<infCte versao="4.00" Id="${ID}">`, `<infCte  Id='${ID}'\n versao="4.00" >`)
      .replace('<xNome>DESTINATARIO COMERCIO SA</xNome>', '<xNome >DESTINATARIO COMERCIO SA</xNome\n>')
      .replace('<infModal versaoModal="4.00">', "<infModal versaoModal='4.00'>");
    expect(rewritten).not.toBe(signed);
    expect(fastAnswer(rewritten).valid).toBe(true);
    if (withXmlsec) expect(xmlsecVerify(rewritten, { element: 'infCte', trustedPem: a1.caCertificatePem }).ok).toBe(true);
    const quoted = sign(CTE.replace('<proPred>', "<proPred>&quot;A&quot; &amp; 'B' "))
      .replace('&quot;A&quot;', '"A"')
      .replace("'B'", '&apos;B&apos;');
    expect(fastAnswer(quoted).valid).toBe(true);
  });

  const attacks: [string, () => string, RegExp, string?][] = [
    [
      'content changed',
      () => signed.replace('<vTPrest>1500.00</vTPrest>', '<vTPrest>9500.00</vTPrest>'),
      /digest of infCte does not match/,
    ],
    ['a blank added between elements', () => signed.replace('</ide><emit>', '</ide> <emit>'), /digest of infCte does not match/],
    ['an attribute added', () => signed.replace('<ide>', '<ide a="1">'), /digest of infCte does not match/],
    ['the namespace changed', () => signed.replace('<CTe xmlns="http://www.portalfiscal.inf.br/cte">', '<CTe xmlns="urn:x">'), /digest/],
    ['a namespace undeclared inside', () => signed.replace('<ide>', '<ide xmlns="">'), /digest of infCte does not match/],
    ['an entity turned into another', () => sign(CTE.replace('<proPred>', '<proPred>a&lt;b')).replace('a&lt;b', 'a&gt;b'), /digest/],
    [
      'content changed and the digest recomputed',
      () => {
        const forged = sign(CTE.replace('<vTPrest>1500.00</vTPrest>', '<vTPrest>9500.00</vTPrest>'));
        const digest = (xml: string) => /<DigestValue>([^<]+)</.exec(xml)![1]!;
        return forged.replace(signatureOf(forged), signatureOf(signed).replace(digest(signed), digest(forged)));
      },
      /SignatureValue does not verify/,
    ],
    [
      'the digest changed',
      () => signed.replace(/<DigestValue>[^<]+</, `<DigestValue>${Buffer.alloc(20, 7).toString('base64')}<`),
      /digest of infCte does not match/,
    ],
    [
      'the SignatureValue changed',
      () => signed.replace(/<SignatureValue>(.)/, (_, c: string) => `<SignatureValue>${c === 'A' ? 'B' : 'A'}`),
      /SignatureValue/,
    ],
    [
      'the signature of another signer over the same content, with the first certificate',
      () => {
        const other = sign(CTE, 'infCte', intrusoKeys);
        const cert = (xml: string) => /<X509Certificate>([^<]+)</.exec(xml)![1]!;
        return other.replace(cert(other), cert(signed));
      },
      /SignatureValue does not verify/,
    ],
    [
      'XSW: a forged infCte with the Id, the original moved into a ds:Object of the Signature',
      () => {
        const forged = infCteOf(signed).replace('<vTPrest>1500.00</vTPrest>', '<vTPrest>9500.00</vTPrest>');
        const moved = signed.replace(infCteOf(signed), forged);
        return moved.replace('</KeyInfo>', `</KeyInfo><Object>${infCteOf(signed)}</Object>`);
      },
      /2 elements infCte/,
    ],
    [
      'XSW: as above, the signed element named by its parent',
      () => {
        const forged = infCteOf(signed).replace('<vTPrest>1500.00</vTPrest>', '<vTPrest>9500.00</vTPrest>');
        return signed.replace(infCteOf(signed), forged).replace('</KeyInfo>', `</KeyInfo><Object>${infCteOf(signed)}</Object>`);
      },
      /more than one element has the Id/,
      'CTe/infCte',
    ],
    [
      'XSW: a forged infCte with another Id, the original wrapped in an element of its own',
      () => {
        const forged = infCteOf(signed)
          .replace(ID, `${ID.slice(0, -1)}9`)
          .replace('1500.00', '9500.00');
        return signed.replace(infCteOf(signed), `${forged}<extra>${infCteOf(signed)}</extra>`);
      },
      /2 elements infCte/,
    ],
    [
      'XSW: the original kept under another parent, a forged one with another Id where the signature looks',
      () => {
        const forged = infCteOf(signed).replace(ID, `${ID.slice(0, -1)}9`);
        return signed.replace(infCteOf(signed), forged).replace('</KeyInfo>', `</KeyInfo><Object>${infCteOf(signed)}</Object>`);
      },
      /not at #CTe/,
      'CTe/infCte',
    ],
    ['a second element with the Id', () => signed.replace('<infCTeSupl>', `<infCTeSupl Id="${ID}">`), /more than one element has the Id/],
    ['a second element with the Id as ID', () => signed.replace('<ide>', `<ide ID="${ID}">`), /more than one element has the Id/],
    ['a second element with the Id as id', () => signed.replace('<emit>', `<emit id="${ID}">`), /more than one element has the Id/],
    ['two Signature elements', () => signed.replace('</CTe>', `${signatureOf(signed)}</CTe>`), /holds 2 Signature elements/],
    [
      'the Signature moved into infCte',
      () => signed.replace(signatureOf(signed), '').replace('</infCte>', `${signatureOf(signed)}</infCte>`),
      /holds no Signature/,
    ],
    ['the Signature out of its namespace', () => signed.replace(' xmlns="http://www.w3.org/2000/09/xmldsig#"', ''), /holds no Signature/],
    ['SignedInfo out of the namespace', () => signed.replace('<SignedInfo>', '<SignedInfo xmlns="">'), /one SignedInfo/],
    ['the Reference pointing at nothing', () => signed.replace(`URI="#${ID}"`, 'URI=""'), /points at "", not at #CTe/],
    [
      'the Reference pointing at another element',
      () => signed.replace(`URI="#${ID}"`, 'URI="#supl"').replace('<infCTeSupl>', '<infCTeSupl Id="supl">'),
      /not at #CTe/,
    ],
    [
      'a valid signature of another element of the document',
      () => {
        const supl = CTE.replace('<infCTeSupl>', '<infCTeSupl Id="supl">');
        return sign(supl.replace('</infCTeSupl>', '<inner Id="x"/></infCTeSupl>'), 'inner');
      },
      /(no Signature|points at)/,
    ],
    [
      'a second Reference',
      () => signed.replace('</Reference>', `</Reference>${/<Reference .*?<\/Reference>/s.exec(signed)![0].replace(ID, 'x')}`),
      /exactly one Reference/,
    ],
    [
      'a transform with parameters',
      () => signed.replace(/(<Transform Algorithm="[^"]+enveloped-signature")\/>/, '$1><XPath>1</XPath></Transform>'),
      /no parameters/,
    ],
    ['a transform left out', () => signed.replace(/<Transform Algorithm="[^"]+enveloped-signature"\/>/, ''), /transforms must be/],
    ['another digest method', () => signed.replace('xmldsig#sha1', 'xmlenc#sha256'), /DigestMethod must be/],
    [
      'two certificates',
      () => signed.replace('</X509Data>', `<X509Certificate>${/<X509Certificate>([^<]+)</.exec(signed)![1]}</X509Certificate></X509Data>`),
      /one X509Certificate/,
    ],
    ['markup inside the SignatureValue', () => signed.replace(/(<SignatureValue>.{10})/, '$1<a/>'), /hold text only/],
    ['markup inside the certificate', () => signed.replace(/(<X509Certificate>.{10})/, '$1<a></a>'), /hold text only/],
    [
      'two DigestValue elements',
      () => signed.replace(/(<DigestValue>[^<]+<\/DigestValue>)/, '$1$1'),
      /one DigestValue and one SignatureValue/,
    ],
    ['no SignatureValue', () => signed.replace(/<SignatureValue>[^<]+<\/SignatureValue>/, ''), /one DigestValue and one SignatureValue/],
    ['a certificate that is not one', () => signed.replace(/<X509Certificate>[^<]+</, '<X509Certificate>AAAA<'), /cannot be read/],
  ];

  it.each(attacks)('refuses %s', (_, attack, reason, element = 'infCte') => {
    const xml = attack();
    expect(xml).not.toBe(signed);
    const answer = fastAnswer(xml, element);
    expect(answer.valid).toBe(false);
    expect(answer.reason).toMatch(reason);
  });

  it('leaves to the generic path what is outside the subset, where it verifies (xmlsec1 too) or not as before', () => {
    // A character reference for a character of the signed content: the same canonical form, read by xmldom.
    const charRef = signed.replace('<xNome>DESTINATARIO COMERCIO SA</xNome>', '<xNome>DESTINAT&#65;RIO COMERCIO SA</xNome>');
    expect(readLightDom(charRef)).toBeNull();
    expect(verify(charRef).valid).toBe(true);
    if (withXmlsec) expect(xmlsecVerify(charRef, { element: 'infCte', trustedPem: a1.caCertificatePem }).ok).toBe(true);
    const cdata = signed.replace('<xNome>DESTINATARIO COMERCIO SA</xNome>', '<xNome><![CDATA[DESTINATARIO COMERCIO SA]]></xNome>');
    expect(readLightDom(cdata)).toBeNull();
    expect(verify(cdata).valid).toBe(true);
    const prefixed = signed
      .replace(
        /<(\/?)(Signature|SignedInfo|CanonicalizationMethod|SignatureMethod|Reference|Transforms?|Digest\w+|SignatureValue|KeyInfo|X509\w+)\b/g,
        '<$1ds:$2',
      )
      .replace('<ds:Signature xmlns=', '<ds:Signature xmlns:ds=');
    expect(readLightDom(prefixed)).toBeNull();
    // The prefix is part of the canonical SignedInfo, which is what was signed.
    expect(verify(prefixed).reason).toMatch(/SignatureValue does not verify/);
    const commented = signed.replace('<ide>', '<ide><!-- x -->');
    expect(readLightDom(commented)).toBeNull();
    expect(verify(commented).valid).toBe(true);
    expect(verify(signed.replace('<ide>', '<ide>&#13;')).reason).toMatch(/digest of infCte does not match/);
    expect(verify(signed.replace('<CTe ', '<!DOCTYPE CTe [<!ENTITY x "y">]><CTe ')).reason).toMatch(/^hostile XML/);
  });

  it('reads an end tag with blanks on the last element of a name as xmldom 0.8 alone would not (it closed an earlier one early)', () => {
    const names = signed.match(/<xNome>/g) ?? [];
    expect(names.length).toBeGreaterThan(1);
    const last = signed.lastIndexOf('</xNome>');
    const spaced = signed.slice(0, last) + '</xNome \n>' + signed.slice(last + '</xNome>'.length);
    expect('doc' in parseFiscalXml(spaced)).toBe(true);
    expect(verify(spaced).valid).toBe(true);
    expect(verify(generic(spaced)).valid).toBe(true);
    // Blanks are taken out of end tags only: comments, CDATA and text keep theirs.
    const kept = '<a><!-- </b > --><![CDATA[</c >]]>x </d ></a>';
    expect(withBareEndTags(kept)).toBe('<a><!-- </b > --><![CDATA[</c >]]>x </d></a>');
    expect(withBareEndTags('<a></a\t\r\n>')).toBe('<a></a>');
    expect(withBareEndTags('<a></ a>')).toBe('<a></ a>');
  });

  // Random edits of a signed CT-e (markup characters inserted, ranges deleted or duplicated elsewhere): whenever the
  // light tree reads the result, xmldom reads it too and both paths accept it or both refuse it.
  it('gives the generic answer on every randomly edited document it reads', () => {
    const snippets = [
      '<',
      '>',
      '/',
      '"',
      "'",
      '=',
      '&',
      '&amp;',
      '&lt;',
      ';',
      ' ',
      '\n',
      'x',
      '<a>',
      '</a>',
      '<a/>',
      ` Id="${ID}"`,
      ' xmlns=""',
    ];
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...snippets) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant('copy' as const), at: fc.nat(), from: fc.nat(), length: fc.integer({ min: 1, max: 400 }) }),
    );
    let read = 0;
    let valid = 0;
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        let xml = signed;
        for (const e of edits) {
          const at = e.at % (xml.length + 1);
          if (e.kind === 'insert') xml = xml.slice(0, at) + e.text + xml.slice(at);
          else if (e.kind === 'delete') xml = xml.slice(0, at) + xml.slice(at + e.length);
          else {
            const from = e.from % xml.length;
            xml = xml.slice(0, at) + xml.slice(from, from + e.length) + xml.slice(at);
          }
        }
        if (!readLightDom(xml)) return;
        read++;
        expect('doc' in parseFiscalXml(xml)).toBe(true);
        // Which check fails first may differ (a digest, or the SignedInfo first, as xml-crypto does): acceptance may not.
        const fast = verify(xml);
        const slow = verify(generic(xml));
        expect(fast.valid).toBe(slow.valid);
        expect(fast.certificatePem).toBe(slow.certificatePem);
        if (fast.valid) valid++;
      }),
      { numRuns: 3000 },
    );
    expect(read).toBeGreaterThan(100);
    expect(valid).toBeGreaterThan(0);
  });
});

describe('the fast path signs the bytes the generic path signs', () => {
  it('refuses to sign what the generic path refuses, for the same reason', () => {
    const reasonOf = (xml: string, element = 'infCte') => {
      try {
        sign(xml, element);
      } catch (error) {
        return (error as { reason?: string }).reason;
      }
      return 'signed';
    };
    const cases: [string, string, string?][] = [
      [signed, 'already_signed'],
      [CTE.replace('<emit>', `<emit Id="${ID}">`), 'duplicate_id'],
      [CTE.replace('<emit>', `<emit id="${ID}">`), 'duplicate_id'],
      [CTE.replace(` Id="${ID}"`, ''), 'missing_id'],
      [CTE.replace(` Id="${ID}"`, ' Id="a b"'), 'missing_id'],
      [CTE.replace('</infCTeSupl>', '<infCte Id="x"/></infCTeSupl>'), 'element_not_unique'],
      [CTE, 'element_not_found', 'infMDFe'],
      [`<infCte xmlns="urn:x" Id="${ID}"><ide/></infCte>`, 'no_parent'],
    ];
    for (const [xml, reason, element] of cases) {
      expect(readLightDom(xml)).not.toBeNull();
      expect(reasonOf(xml, element)).toBe(reason);
      expect(reasonOf(generic(xml), element)).toBe(reason);
    }
  });

  const SHARED = path.join(__dirname, '..', '..', '..', 'shared', 'fixtures', 'samples');
  const samples = existsSync(SHARED)
    ? readdirSync(path.join(SHARED, 'mdfe'))
        .map((f) => readFileSync(path.join(SHARED, 'mdfe', f), 'utf8'))
        .map((xml) => xml.replace(/<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">.*?<\/Signature>/s, ''))
        .filter((xml) => readLightDom(xml) && /<infMDFe [^>]*Id="/.test(xml) && /<\/MDFe>/.test(xml))
    : [];
  const built = Array.from({ length: 6 }, (_, i) => {
    const input = montarInput({ numero: 10 + i, cCT: String(20_000_000 + i).slice(-8) });
    if (i % 2) input.dados = { ...input.dados, observacoes: 'A & B <C> "D" \'E\' ÇÃ' };
    return montarCteXml(input).xml;
  });

  it('on the CT-e the service builds and on pretty-printed MDF-e samples (xmlsec1 accepts both)', () => {
    const documents: [string, string][] = [
      ...built.map((xml) => [xml, 'infCte'] as [string, string]),
      ...samples.map((xml) => [xml, 'infMDFe'] as [string, string]),
    ];
    for (const [xml, element] of documents) {
      expect(readLightDom(xml)).not.toBeNull();
      const fast = sign(xml, element);
      const slow = sign(generic(xml), element);
      expect(signatureOf(fast)).toBe(signatureOf(slow));
      expect(fastAnswer(fast, element).valid).toBe(true);
    }
    if (withXmlsec)
      for (const [xml, element] of [documents[1]!, documents[documents.length - 1]!]) {
        expect(xmlsecVerify(sign(xml, element), { element, trustedPem: a1.caCertificatePem }).ok).toBe(true);
      }
  });
});
