import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  C14N_10,
  ENVELOPED_SIGNATURE,
  FISCAL_SCHEMAS_DIR,
  FiscalSchemas,
  FiscalSignatureError,
  type FiscalSignError,
  RSA_SHA1,
  SHA1,
  signFiscalXml,
  verifyFiscalSignature,
} from '@frete/documents';
import { readPkcs12 } from '@frete/platform';
import { cnpjFrom, makeA1 } from '../support/certificates';
import { XMLLINT, XMLSEC1, requireTool, xmllintValidate, xmlsecVerify } from '../support/xmlsec';

const fixture = (...parts: string[]) => readFileSync(path.join(__dirname, '..', 'fixtures', ...parts), 'utf8');

const CHAVE = '43261111222333000181570010000000011403085211';
const CTE = fixture('cte', 'minimo-v4.00.xml');
const MDFE_SAMPLE = fixture('mdfe', '43240186933033000100580010000045181240181540-rep.xml');
const CNPJ = cnpjFrom('112223330001');
const SENHA = 'senha-do-a1';

const withXmlsec = requireTool(XMLSEC1, 'xmlsec1', 'xmlsec1');
const withXmllint = requireTool(XMLLINT, 'xmllint', 'libxml2-utils');
const itXmlsec = withXmlsec ? it : it.skip;
const itXmllint = withXmllint ? it : it.skip;

// The signer's key and certificate as the service gets them: out of the A1 PKCS#12.
const a1 = makeA1({ cnpj: CNPJ, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: SENHA, cnpjIn: 'otherName' });
const { privateKeyPem, certificatePem } = readPkcs12(a1.pfx, SENHA);
const other = makeA1({ cnpj: CNPJ, razao: 'OUTRA', password: SENHA, cnpjIn: 'otherName', keyIndex: 1 });
const otherKeys = readPkcs12(other.pfx, SENHA);

const sign = (xml: string, element = 'infCte') => signFiscalXml(xml, { element, privateKeyPem, certificatePem });
const signatureOf = (xml: string): string => /<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">.*?<\/Signature>/s.exec(xml)![0];
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

function signFailure(run: () => unknown): FiscalSignError {
  try {
    run();
  } catch (error) {
    if (error instanceof FiscalSignatureError) return error.reason;
    throw error;
  }
  throw new Error('expected a FiscalSignatureError');
}

/** The cancellation event of the fixture's CT-e, unsigned. */
const EVENTO_CANC =
  '<eventoCTe xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00">' +
  `<infEvento Id="ID110111${CHAVE}001"><cOrgao>43</cOrgao><tpAmb>2</tpAmb><CNPJ>${CNPJ}</CNPJ><chCTe>${CHAVE}</chCTe>` +
  '<dhEvento>2026-11-20T11:00:00-03:00</dhEvento><tpEvento>110111</tpEvento><nSeqEvento>1</nSeqEvento>' +
  '<detEvento versaoEvento="4.00"><evCancCTe><descEvento>Cancelamento</descEvento><nProt>143260000000001</nProt>' +
  '<xJust>ERRO NA EMISSAO DO CONHECIMENTO</xJust></evCancCTe></detEvento></infEvento></eventoCTe>';

const schemas = new FiscalSchemas();
afterAll(() => schemas.close());

describe('signFiscalXml: the CT-e enveloped signature', () => {
  const signed = sign(CTE);
  const signature = signatureOf(signed);

  it('appends the Signature as the last child of CTe and leaves every other byte of the input as it was', () => {
    expect(signed).toBe(CTE.replace('</CTe>', `${signature}</CTe>`));
    expect(signed.startsWith('<?xml version="1.0" encoding="UTF-8"?><CTe xmlns="http://www.portalfiscal.inf.br/cte"><infCte')).toBe(true);
    expect(signed.endsWith(`</infCTeSupl>${signature}</CTe>`)).toBe(true);
    expect(signed).not.toMatch(/>\s+</);
  });

  it('signs infCte by its Id with C14N 1.0, enveloped-signature + C14N transforms, SHA-1 and RSA-SHA1, and carries the certificate', () => {
    expect(signature).toContain(`<CanonicalizationMethod Algorithm="${C14N_10}"/>`);
    expect(signature).toContain(`<SignatureMethod Algorithm="${RSA_SHA1}"/>`);
    expect(signature).toContain(
      `<Reference URI="#CTe${CHAVE}"><Transforms><Transform Algorithm="${ENVELOPED_SIGNATURE}"/><Transform Algorithm="${C14N_10}"/></Transforms>` +
        `<DigestMethod Algorithm="${SHA1}"/><DigestValue>`,
    );
    expect(signature.match(/<Reference /g)).toHaveLength(1);
    const certificate =
      /<KeyInfo><X509Data><X509Certificate>([A-Za-z0-9+/=]+)<\/X509Certificate><\/X509Data><\/KeyInfo><\/Signature>$/.exec(signature);
    expect(certificate).not.toBeNull();
    expect(certificate![1]).toBe(certificatePem.replace(/-----[A-Z ]+-----|\s/g, ''));
  });

  it('passes cte_v4.00.xsd once signed (and fails it unsigned, for want of the Signature)', async () => {
    expect(await schemas.validate(signed, 'cte_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    const unsigned = await schemas.validate(CTE, 'cte_v4.00.xsd');
    expect(unsigned.valid).toBe(false);
    expect(unsigned.errors).toEqual([expect.objectContaining({ line: 1, path: '/CTe', message: expect.stringContaining('ds:Signature') })]);
  });

  itXmllint('passes cte_v4.00.xsd with the native xmllint too', () => {
    const r = xmllintValidate(signed, path.join(FISCAL_SCHEMAS_DIR, 'cte-4.00', 'cte_v4.00.xsd'));
    expect(r.output).toContain('validates');
    expect(r.ok).toBe(true);
  });

  it('verifies with verifyFiscalSignature, which hands back the signer certificate', () => {
    const check = verifyFiscalSignature(signed, { element: 'infCte' });
    expect(check).toEqual({ valid: true, certificatePem: expect.any(String) });
    expect(fingerprint(check.certificatePem!)).toBe(fingerprint(certificatePem));
  });

  itXmlsec('verifies with xmlsec1 (libxmlsec1 + OpenSSL), the certificate chaining to the test CA', () => {
    const r = xmlsecVerify(signed, { element: 'infCte', trustedPem: a1.caCertificatePem });
    expect(r.output).toContain('OK');
    expect(r.ok).toBe(true);
  });

  describe('one character of infCte changed', () => {
    const tampered = signed.replace('<vTPrest>1500.00</vTPrest>', '<vTPrest>1500.01</vTPrest>');
    const renamed = signed.replace('<xNome>DESTINATARIO COMERCIO SA</xNome>', '<xNome>DESTINATARIO COMERCIO SB</xNome>');

    it('fails verifyFiscalSignature on the digest', () => {
      expect(tampered).not.toBe(signed);
      for (const xml of [tampered, renamed]) {
        expect(verifyFiscalSignature(xml, { element: 'infCte' })).toEqual({
          valid: false,
          reason: expect.stringMatching(/digest of infCte does not match/),
        });
      }
    });

    itXmlsec('fails xmlsec1', () => {
      for (const xml of [tampered, renamed]) {
        const r = xmlsecVerify(xml, { element: 'infCte', trustedPem: a1.caCertificatePem });
        expect(r.ok).toBe(false);
        expect(r.output).toMatch(/FAIL|digest/i);
      }
    });
  });

  it('fails when the SignatureValue or the SignedInfo is changed, or the certificate is another', () => {
    const value = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(signed)![1]!;
    const flipped = value.slice(0, 10) + (value[10] === 'A' ? 'B' : 'A') + value.slice(11);
    expect(verifyFiscalSignature(signed.replace(value, flipped), { element: 'infCte' })).toEqual({
      valid: false,
      reason: 'the SignatureValue does not verify with the certificate in KeyInfo',
    });
    const digest = /<DigestValue>([^<]+)<\/DigestValue>/.exec(signed)![1]!;
    const otherDigest = Buffer.alloc(20, 7).toString('base64');
    expect(verifyFiscalSignature(signed.replace(digest, otherDigest), { element: 'infCte' }).valid).toBe(false);
    const otherCert = otherKeys.certificatePem.replace(/-----[A-Z ]+-----|\s/g, '');
    const swapped = signed.replace(/<X509Certificate>[^<]+</, `<X509Certificate>${otherCert}<`);
    expect(verifyFiscalSignature(swapped, { element: 'infCte' })).toEqual({
      valid: false,
      reason: expect.stringContaining('SignatureValue does not verify'),
    });
  });

  it('refuses what departs from the fiscal profile, before any cryptography', () => {
    const check = (xml: string) => verifyFiscalSignature(xml, { element: 'infCte' });
    expect(check(signed.replace(`URI="#CTe${CHAVE}"`, 'URI=""')).reason).toMatch(/points at "", not at #CTe/);
    expect(
      check(
        signed.replace(
          `<SignatureMethod Algorithm="${RSA_SHA1}"/>`,
          '<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>',
        ),
      ).reason,
    ).toMatch(/SignatureMethod must be/);
    expect(check(signed.replace(`<Transform Algorithm="${ENVELOPED_SIGNATURE}"/>`, '')).reason).toMatch(/transforms must be/);
    expect(check(CTE).reason).toBe('CTe holds no Signature');
    expect(check(signed.replace('</CTe>', `${signature}</CTe>`)).reason).toBe('CTe holds 2 Signature elements');
    expect(check(signed.replace('<CTe ', '<!DOCTYPE CTe [<!ENTITY x "y">]><CTe ')).reason).toMatch(/^hostile XML/);
    expect(check(signed.replace('</ide>', '</idx>')).reason).toMatch(/^malformed XML/);
    expect(check(signed).valid).toBe(true);
  });

  it('refuses a second element with the signed Id (signature wrapping)', () => {
    const wrapped = signed.replace('<infCTeSupl>', `<infCTeSupl Id="CTe${CHAVE}">`);
    expect(verifyFiscalSignature(wrapped, { element: 'infCte' })).toEqual({
      valid: false,
      reason: `more than one element has the Id CTe${CHAVE}`,
    });
  });

  it('refuses to sign twice, without the element, with a key the certificate does not match', () => {
    expect(signFailure(() => sign(signed))).toBe('already_signed');
    expect(signFailure(() => sign(CTE, 'infMDFe'))).toBe('element_not_found');
    expect(signFailure(() => sign(CTE.replace(` Id="CTe${CHAVE}"`, '')))).toBe('missing_id');
    expect(signFailure(() => sign(`<infCte xmlns="http://www.portalfiscal.inf.br/cte" Id="CTe${CHAVE}"><ide/></infCte>`))).toBe(
      'no_parent',
    );
    expect(signFailure(() => signFiscalXml(CTE, { element: 'infCte', privateKeyPem: otherKeys.privateKeyPem, certificatePem }))).toBe(
      'key_mismatch',
    );
    expect(signFailure(() => sign(CTE.replace('<CTe ', '<!DOCTYPE CTe><CTe ')))).toBe('hostile_xml');
  });

  it('keeps entity and character references, attribute quoting and the absence of a declaration as they were', () => {
    const odd = CTE.replace('<?xml version="1.0" encoding="UTF-8"?>', '')
      .replace('<xNome>REMETENTE INDUSTRIA LTDA</xNome>', '<xNome>REMETENTE &amp; FILHOS IND&#xDA;STRIA LTDA</xNome>')
      .replace('versaoModal="4.00"', "versaoModal='4.00'");
    const out = sign(odd);
    expect(out).toBe(odd.replace('</CTe>', `${signatureOf(out)}</CTe>`));
    expect(verifyFiscalSignature(out, { element: 'infCte' }).valid).toBe(true);
  });

  // The profile is computed directly in the plain case and by xml-crypto's generic pipeline otherwise (a comment in
  // the document, a prefixed namespace on an ancestor): each must accept what the other signs, byte for byte alike.
  it('signs the same bytes on the direct path and the generic one, and each path accepts what the other signed', () => {
    const direto = sign(CTE);
    const comComentario = CTE.replace('</CTe>', '<!-- fora do elemento assinado --></CTe>');
    const generico = sign(comComentario);
    expect(signatureOf(generico)).toBe(signatureOf(direto));
    // The generic checker (the comment sends it there) accepts the direct signature, and the direct one the generic.
    expect(verifyFiscalSignature(direto.replace('</CTe>', '<!-- x --></CTe>'), { element: 'infCte' }).valid).toBe(true);
    expect(verifyFiscalSignature(generico.replace('<!-- fora do elemento assinado -->', ''), { element: 'infCte' }).valid).toBe(true);
    // Tampering is caught on both paths.
    const alterado = direto.replace('PECAS', 'PECAZ');
    expect(verifyFiscalSignature(alterado, { element: 'infCte' }).reason).toMatch(/digest of infCte does not match/);
    expect(verifyFiscalSignature(alterado.replace('</CTe>', '<!-- x --></CTe>'), { element: 'infCte' }).reason).toMatch(/digest/);
  });

  itXmlsec('a prefixed namespace on the root takes the generic path, and xmlsec1 accepts its signature too', () => {
    const prefixado = CTE.replace(
      '<CTe xmlns="http://www.portalfiscal.inf.br/cte">',
      '<CTe xmlns="http://www.portalfiscal.inf.br/cte" xmlns:x="urn:x">',
    );
    expect(prefixado).not.toBe(CTE);
    const out = sign(prefixado);
    expect(verifyFiscalSignature(out, { element: 'infCte' }).valid).toBe(true);
    expect(xmlsecVerify(out, { element: 'infCte', trustedPem: a1.caCertificatePem }).ok).toBe(true);
    expect(xmlsecVerify(sign(CTE), { element: 'infCte', trustedPem: a1.caCertificatePem }).ok).toBe(true);
  });
});

describe('signFiscalXml: MDF-e and events', () => {
  it('signs an MDF-e (infMDFe, Signature last in MDFe) that verifies here and with xmlsec1 and passes mdfe_v3.00.xsd', async () => {
    const unsigned = MDFE_SAMPLE.replace(/<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">.*<\/Signature>/s, '');
    const signed = sign(unsigned, 'infMDFe');
    expect(signed).toBe(unsigned.replace('</MDFe>', `${signatureOf(signed)}</MDFe>`));
    expect(signed).toContain('<xMunCarrega>Bento Gon&#xE7;alves</xMunCarrega>');
    expect(signatureOf(signed)).toContain('<Reference URI="#MDFe43240186933033000100580010000045181240181540">');
    expect(verifyFiscalSignature(signed, { element: 'infMDFe' }).valid).toBe(true);
    if (withXmlsec) expect(xmlsecVerify(signed, { element: 'infMDFe', trustedPem: a1.caCertificatePem }).ok).toBe(true);
    expect(await schemas.validate(signed, 'mdfe_v3.00.xsd')).toEqual({ valid: true, errors: [] });
  });

  it('signs a CT-e cancellation event (infEvento, Signature last in eventoCTe) that passes eventoCTe_v4.00.xsd and evCancCTe_v4.00.xsd', async () => {
    const signed = sign(EVENTO_CANC, 'infEvento');
    expect(signed.endsWith(`</infEvento>${signatureOf(signed)}</eventoCTe>`)).toBe(true);
    expect(verifyFiscalSignature(signed, { element: 'infEvento' }).valid).toBe(true);
    if (withXmlsec) expect(xmlsecVerify(signed, { element: 'infEvento', trustedPem: a1.caCertificatePem }).ok).toBe(true);
    expect(await schemas.validate(signed, 'eventoCTe_v4.00.xsd')).toEqual({ valid: true, errors: [] });
    // detEvento is open content in the root schema: the event's own schema catches what the root cannot.
    const badJust = sign(EVENTO_CANC.replace('<xJust>ERRO NA EMISSAO DO CONHECIMENTO</xJust>', '<xJust>CURTA</xJust>'), 'infEvento');
    const result = await schemas.validate(badJust, 'eventoCTe_v4.00.xsd');
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({
        schema: 'evCancCTe_v4.00.xsd',
        path: '/eventoCTe/infEvento/detEvento/evCancCTe/xJust',
        message: expect.stringContaining('xJust'),
      }),
    ]);
  });

  it('tells the event from the answer inside procEventoCTe by the parent: eventoCTe/infEvento', () => {
    const signed = sign(EVENTO_CANC, 'infEvento');
    const proc =
      `<procEventoCTe xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00">${signed.replace(' xmlns="http://www.portalfiscal.inf.br/cte"', '')}` +
      `<retEventoCTe versao="4.00"><infEvento Id="ID143260000000002"><tpAmb>2</tpAmb><verAplic>SVRS</verAplic><cOrgao>43</cOrgao>` +
      `<cStat>135</cStat><xMotivo>Evento registrado e vinculado a CT-e</xMotivo></infEvento></retEventoCTe></procEventoCTe>`;
    expect(verifyFiscalSignature(proc, { element: 'infEvento' })).toEqual({ valid: false, reason: '2 elements infEvento' });
    expect(verifyFiscalSignature(proc, { element: 'eventoCTe/infEvento' }).valid).toBe(true);
    expect(verifyFiscalSignature(proc, { element: 'retEventoCTe/infEvento' })).toEqual({
      valid: false,
      reason: 'retEventoCTe holds no Signature',
    });
    const unsignedProc = proc.replace(signatureOf(proc), '');
    const resigned = signFiscalXml(unsignedProc, { element: 'eventoCTe/infEvento', privateKeyPem, certificatePem });
    expect(resigned).toBe(unsignedProc.replace('</eventoCTe>', `${signatureOf(resigned)}</eventoCTe>`));
    expect(signFailure(() => sign(unsignedProc, 'infEvento'))).toBe('element_not_unique');
  });

  it('says the public MDF-e sample signature does not verify: the sample was edited after signing', () => {
    expect(verifyFiscalSignature(MDFE_SAMPLE, { element: 'infMDFe' })).toEqual({
      valid: false,
      reason: expect.stringMatching(/digest of infMDFe does not match/),
    });
  });
});

describe('FiscalSchemas: the official schemas', () => {
  /** The fixture with a line break after every tag, so errors land on lines of their own. */
  const lined = (xml: string) => xml.replace(/></g, '>\n<');
  const lineOf = (xml: string, needle: string) => xml.slice(0, xml.indexOf(needle)).split('\n').length;

  it('reports a wrong shape with line numbers, messages and paths', async () => {
    const xml = lined(sign(CTE))
      .replace('<CRT>3</CRT>', '<CRT>9</CRT>')
      .replace('<dhEmi>2026-11-20T10:00:00-03:00</dhEmi>', '<dhEmi>2026-11-20 10:00</dhEmi>');
    const { valid, errors } = await schemas.validate(xml, 'cte_v4.00.xsd');
    expect(valid).toBe(false);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          line: lineOf(xml, '<dhEmi>'),
          path: '/CTe/infCte/ide/dhEmi',
          schema: 'cte_v4.00.xsd',
          message: expect.stringContaining("Element 'dhEmi'"),
        }),
        expect.objectContaining({
          line: lineOf(xml, '<CRT>'),
          path: '/CTe/infCte/emit/CRT',
          message: expect.stringMatching(/Element 'CRT'.*'9'/),
        }),
      ]),
    );
    const missing = await schemas.validate(lined(CTE).replace(/<vPrest>.*?<\/vPrest>\n/s, ''), 'cte_v4.00.xsd');
    expect(missing.errors[0]).toEqual(
      expect.objectContaining({
        path: '/CTe/infCte/imp',
        message: expect.stringMatching(/Element 'imp': This element is not expected\. Expected is \( vPrest \)/),
      }),
    );
  });

  it('validates infModal against the modal schema in a second pass (the root schema skips it)', async () => {
    const xml = lined(sign(CTE.replace('<RNTRC>12345678</RNTRC>', '<RNTRC>ABC</RNTRC>')));
    const result = await schemas.validate(xml, 'cte_v4.00.xsd');
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      expect.objectContaining({
        line: lineOf(xml, '<RNTRC>'),
        path: '/CTe/infCte/infCTeNorm/infModal/rodo/RNTRC',
        schema: 'cteModalRodoviario_v4.00.xsd',
      }),
    ]);
    const unknown = await schemas.validate(sign(CTE.replace(/<rodo>.*<\/rodo>/, '<trem><x>1</x></trem>')), 'cte_v4.00.xsd');
    expect(unknown.errors).toEqual([
      expect.objectContaining({
        path: '/CTe/infCte/infCTeNorm/infModal/trem',
        message: expect.stringContaining("Element 'trem' in 'infModal' has no schema"),
      }),
    ]);
  });

  it('passes the real MDF-e 3.00 sample against mdfe_v3.00.xsd and its road modal, and catches a bad plate in rodo', async () => {
    expect(await schemas.validate(MDFE_SAMPLE, 'mdfe_v3.00.xsd')).toEqual({ valid: true, errors: [] });
    const bad = await schemas.validate(MDFE_SAMPLE.replace('<placa>JAZ7G43</placa>', '<placa>JAZ-7G43</placa>'), 'mdfe_v3.00.xsd');
    expect(bad.errors).toEqual([
      expect.objectContaining({ schema: 'mdfeModalRodoviario_v3.00.xsd', path: '/MDFe/infMDFe/infModal/rodo/veicTracao/placa' }),
    ]);
  });

  it('answers malformed and hostile XML as invalid, with the line where it applies', async () => {
    const malformed = await schemas.validate('<CTe xmlns="http://www.portalfiscal.inf.br/cte">\n<infCte>\n</CTe>', 'cte_v4.00.xsd');
    expect(malformed.valid).toBe(false);
    expect(malformed.errors[0]).toEqual(expect.objectContaining({ line: 3, message: expect.any(String) }));
    const hostile = await schemas.validate('<!DOCTYPE x [<!ENTITY a "b">]><CTe/>', 'cte_v4.00.xsd');
    expect(hostile).toEqual({ valid: false, errors: [expect.objectContaining({ line: 0, message: expect.stringContaining('DOCTYPE') })] });
  });

  it('compiles every root schema of the packages, with its modal and event schemas', async () => {
    const fresh = new FiscalSchemas();
    try {
      await expect(fresh.preload()).resolves.toBeUndefined();
    } finally {
      await fresh.close();
    }
  });

  it('validates many documents at once on the compiled schemas, in milliseconds each', async () => {
    await schemas.preload(['cte_v4.00.xsd']);
    const signed = sign(CTE);
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => schemas.validate(signed, 'cte_v4.00.xsd')));
    const each = (performance.now() - started) / results.length;
    expect(results.every((r) => r.valid)).toBe(true);
    // Compiling cte_v4.00.xsd alone takes a few hundred milliseconds: a validation that recompiled would show here.
    expect(each).toBeLessThan(150);
  });
});
