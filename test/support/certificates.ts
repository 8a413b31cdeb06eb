import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as forge from 'node-forge';
import { cnpjCheckDigits } from '@frete/domain';

/**
 * Test A1 certificates shaped like ICP-Brasil e-CNPJ (DOC-ICP-04 7.1.2.3): issued by a generated test CA, with
 * the subjectAltName otherNames 2.16.76.1.3.4 (responsible person: birth date, CPF, NIS, RG, issuer and UF),
 * 2.16.76.1.3.2 (responsible person's name), 2.16.76.1.3.3 (CNPJ) and 2.16.76.1.3.7 (INSS CEI), each value an
 * OCTET STRING (or PrintableString) inside the [0] EXPLICIT of the otherName, as ICP-Brasil certificates carry them.
 */

export interface MakeA1Options {
  cnpj: string;
  razao: string;
  password: string;
  notBefore?: Date;
  notAfter?: Date;
  /** Where the certificate carries the CNPJ: otherName 2.16.76.1.3.3, the `RAZAO:CNPJ` common name, both, or nowhere. */
  cnpjIn: 'otherName' | 'cn' | 'both' | 'none';
  /** How the private key is protected: PKCS#12 PBE with 3DES (legacy) or PBES2 with AES-256-CBC. */
  algorithm?: '3des' | 'aes256';
  /** ASN.1 type of the otherName values (ICP-Brasil allows OCTET STRING or PrintableString). */
  otherNameEncoding?: 'octet' | 'printable' | 'utf8';
  /** Serial number in hex (positive; the DER sign byte is added when needed). Random when not given. */
  serial?: string;
  /** Put the test CA's certificate in the file too, before the end-entity one (default true). */
  includeChain?: boolean;
  /** Which cached key pair the certificate gets (0 or 1). */
  keyIndex?: 0 | 1;
  /** Put the other cached key in the file instead of the certificate's own. */
  mismatchedKey?: boolean;
  withoutKey?: boolean;
  withoutCertificate?: boolean;
  /** No MAC: then only the decryption tells a wrong password. */
  withoutMac?: boolean;
  /** Iteration count of the key encryption (forge's default is 2048). */
  iterations?: number;
  /** Issued by a second test CA that no test trusts (a client certificate the local authority refuses). */
  otherCa?: boolean;
}

export interface A1 {
  pfx: Buffer;
  certificatePem: string;
  privateKeyPem: string;
  caCertificatePem: string;
}

export const ICP_CNPJ = '2.16.76.1.3.3';
const ICP_RESPONSAVEL_DADOS = '2.16.76.1.3.4';
const ICP_RESPONSAVEL_NOME = '2.16.76.1.3.2';
const ICP_CEI = '2.16.76.1.3.7';

/** A valid CNPJ (numeric or alphanumeric) from its first 12 characters. */
export const cnpjFrom = (base12: string): string => base12 + cnpjCheckDigits(base12);

// RSA 2048 takes a while on small machines: one CA key and two end-entity keys per process, made on first use.
const keyCache = new Map<string, forge.pki.rsa.KeyPair>();
function keyPair(name: 'ca' | 'ca2' | 'ee0' | 'ee1'): forge.pki.rsa.KeyPair {
  let pair = keyCache.get(name);
  if (!pair) {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
    pair = { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
    keyCache.set(name, pair);
  }
  return pair;
}

const utf8 = (s: string) => forge.util.encodeUtf8(s);

const CA_SUBJECT: forge.pki.CertificateField[] = [
  { shortName: 'C', value: 'BR' },
  { shortName: 'O', value: 'ICP-Brasil', valueTagClass: forge.asn1.Type.UTF8 as number as forge.asn1.Class },
  {
    shortName: 'OU',
    value: 'Secretaria da Receita Federal do Brasil - RFB',
    valueTagClass: forge.asn1.Type.UTF8 as number as forge.asn1.Class,
  },
  { shortName: 'CN', value: 'AC TESTE FRETE RFB v5', valueTagClass: forge.asn1.Type.UTF8 as number as forge.asn1.Class },
];
export const TEST_CA_NAME = 'AC TESTE FRETE RFB v5';

// The second CA has a name of its own: a verifier must not take one for the other.
const OTHER_CA_SUBJECT: forge.pki.CertificateField[] = [
  ...CA_SUBJECT.slice(0, 3),
  { shortName: 'CN', value: 'AC TESTE NAO CONFIAVEL', valueTagClass: forge.asn1.Type.UTF8 as number as forge.asn1.Class },
];

const caCache = new Map<'ca' | 'ca2', forge.pki.Certificate>();
function testCa(which: 'ca' | 'ca2' = 'ca'): { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey } {
  const { privateKey, publicKey } = keyPair(which);
  let cert = caCache.get(which);
  if (!cert) {
    const subject = which === 'ca' ? CA_SUBJECT : OTHER_CA_SUBJECT;
    cert = forge.pki.createCertificate();
    cert.publicKey = publicKey;
    cert.serialNumber = which === 'ca' ? '01' : '02';
    cert.validity.notBefore = new Date(Date.UTC(2020, 0, 1));
    cert.validity.notAfter = new Date(Date.UTC(2045, 0, 1));
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(privateKey, forge.md.sha256.create());
    caCache.set(which, cert);
  }
  return { cert, key: privateKey };
}

/** The test CA's certificate (PEM): what a verifier of the test A1 certificates trusts. */
export const testCaCertificatePem = (): string => forge.pki.certificateToPem(testCa().cert).replace(/\r\n/g, '\n');

function otherName(oid: string, value: string, encoding: 'octet' | 'printable' | 'utf8'): forge.asn1.Asn1 {
  const type =
    encoding === 'octet' ? forge.asn1.Type.OCTETSTRING : encoding === 'printable' ? forge.asn1.Type.PRINTABLESTRING : forge.asn1.Type.UTF8;
  const { asn1 } = forge;
  return asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(oid).getBytes()),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
      asn1.create(asn1.Class.UNIVERSAL, type, false, encoding === 'utf8' ? utf8(value) : value),
    ]),
  ]);
}

function subjectAltName(o: MakeA1Options): forge.asn1.Asn1 {
  const encoding = o.otherNameEncoding ?? 'octet';
  // 2.16.76.1.3.4: birth date ddmmaaaa (8), CPF (11), NIS (11), RG (15), RG issuer and UF (10).
  const responsavel = '01011980' + '12345678909' + '0'.repeat(11) + '000000123456789' + 'SSPRS'.padEnd(10, ' ');
  const names = [
    otherName(ICP_RESPONSAVEL_DADOS, responsavel, encoding),
    otherName(ICP_RESPONSAVEL_NOME, 'FULANO DE TAL', encoding),
    ...(o.cnpjIn === 'otherName' || o.cnpjIn === 'both' ? [otherName(ICP_CNPJ, o.cnpj, encoding)] : []),
    otherName(ICP_CEI, '0'.repeat(12), encoding),
    forge.asn1.create(forge.asn1.Class.CONTEXT_SPECIFIC, 1, false, 'fiscal@example.com.br'),
  ];
  return forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, names);
}

const wholeSeconds = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x10;
  return bytes.toString('hex');
}

/** DER INTEGER content: a leading 00 when the high bit is set, so the number stays positive. */
function serialDer(hex: string): string {
  const even = hex.length % 2 ? `0${hex}` : hex;
  return parseInt(even.slice(0, 2), 16) >= 0x80 ? `00${even}` : even;
}

export function makeA1(o: MakeA1Options): A1 {
  const ca = testCa(o.otherCa ? 'ca2' : 'ca');
  const own = keyPair(o.keyIndex === 1 ? 'ee1' : 'ee0');
  const other = keyPair(o.keyIndex === 1 ? 'ee0' : 'ee1');
  const now = Date.now();

  const cert = forge.pki.createCertificate();
  cert.publicKey = own.publicKey;
  cert.serialNumber = serialDer((o.serial ?? randomSerial()).toLowerCase());
  cert.validity.notBefore = wholeSeconds(o.notBefore ?? new Date(now - 86_400_000));
  cert.validity.notAfter = wholeSeconds(o.notAfter ?? new Date(now + 365 * 86_400_000));
  const cn = o.cnpjIn === 'cn' || o.cnpjIn === 'both' ? `${o.razao}:${o.cnpj}` : o.razao;
  // forge encodes UTF8String attribute values to UTF-8 itself (and hands them back undecoded when parsing).
  const utf8Field = (shortName: string, value: string): forge.pki.CertificateField => ({
    shortName,
    value,
    valueTagClass: forge.asn1.Type.UTF8 as number as forge.asn1.Class,
  });
  cert.setSubject([
    { shortName: 'C', value: 'BR' },
    utf8Field('O', 'ICP-Brasil'),
    utf8Field('ST', 'RS'),
    utf8Field('L', 'Porto Alegre'),
    utf8Field('OU', 'Secretaria da Receita Federal do Brasil - RFB'),
    utf8Field('OU', 'RFB e-CNPJ A1'),
    utf8Field('OU', 'videoconferencia'),
    utf8Field('CN', cn),
  ]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true, emailProtection: true },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.cert.generateSubjectKeyIdentifier().getBytes() },
    { id: '2.5.29.17', name: 'subjectAltName', value: subjectAltName(o) },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());

  const certificates = o.withoutCertificate ? [] : o.includeChain === false ? [cert] : [ca.cert, cert];
  const key = o.withoutKey ? null : o.mismatchedKey ? other.privateKey : own.privateKey;
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, certificates, o.password, {
    algorithm: o.algorithm ?? '3des',
    useMac: !o.withoutMac,
    generateLocalKeyId: false,
    ...(o.iterations !== undefined ? { count: o.iterations } : {}),
  });
  return {
    pfx: Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'),
    certificatePem: forge.pki.certificateToPem(cert).replace(/\r\n/g, '\n'),
    privateKeyPem: forge.pki.privateKeyToPem(own.privateKey).replace(/\r\n/g, '\n'),
    caCertificatePem: forge.pki.certificateToPem(ca.cert).replace(/\r\n/g, '\n'),
  };
}
