import * as forge from 'node-forge';
// Types only: this module also runs in the worker that opens certificates, which loads nothing but forge.
import type { CertificadoLido } from '@frete/domain';
import { DerivationBudgetExceeded, withDerivationBudget } from './derivation-budget';

/**
 * Opens an A1 certificate (PKCS#12, `.pfx`/`.p12`) with node-forge and reads what the edge needs: the key pair for
 * XML-DSig and the certificate's metadata for the decider.
 *
 * forge opens the legacy files most A1 certificates come in (3DES and RC2-40 with the PKCS#12 KDF, SHA-1 MAC) as
 * well as OpenSSL 3's default (PBES2: PBKDF2-HMAC-SHA256 + AES-256-CBC, SHA-256 MAC). It does not take the password
 * of a PBES2 file as UTF-8 by itself, so a non-ASCII password is retried that way (see `openPfx`).
 *
 * Opening a file blocks the thread it runs on for as long as its key derivations take (a budget bounds them): the
 * service opens certificates through `openPkcs12`, which runs `readPkcs12` in a worker thread.
 */

/** `too_costly`: the file asks for more key-derivation work (or time) than is accepted. */
export type Pkcs12ErrorReason = 'not_pkcs12' | 'wrong_password' | 'no_certificate' | 'no_private_key' | 'too_costly';

export class Pkcs12Error extends Error {
  constructor(
    readonly reason: Pkcs12ErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'Pkcs12Error';
  }
}

export interface Pkcs12Contents {
  /** The end-entity certificate: the one whose public key matches the private key. */
  certificatePem: string;
  /** PKCS#8 (`BEGIN PRIVATE KEY`), unencrypted: keep it in memory only. */
  privateKeyPem: string;
  /** The other certificates of the file, issuer of the end-entity first when the file links them. */
  chainPem: string[];
  lido: CertificadoLido;
  /** Issued by itself (issuer name = subject name): never an ICP-Brasil A1, such as the sandbox's test certificate. */
  autoassinado: boolean;
}

/** ICP-Brasil otherName carrying the legal entity's CNPJ (DOC-ICP-04). */
export const OID_ICP_BRASIL_CNPJ = '2.16.76.1.3.3';
const OID_SUBJECT_ALT_NAME = '2.5.29.17';
const OID_PBES2 = '1.2.840.113549.1.5.13';
const OID_DATA = '1.2.840.113549.1.7.1';
const OID_ENCRYPTED_DATA = '1.2.840.113549.1.7.6';
const OID_SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const OID_SAFE_CONTENTS_BAG = '1.2.840.113549.1.12.10.1.6';

/**
 * forge derives keys in plain JavaScript (about 0.6 s per 100,000 rounds of the PKCS#12 KDF on this hardware), so a
 * crafted file with huge iteration counts could keep a thread busy for minutes. Bouncy Castle writes 600,000 by
 * default since 1.86, OpenSSL 2,048, Windows and Java a few thousand: these limits let all of them through. They
 * bound every derivation of an open, those of bags hidden in encrypted content and of password retries included.
 */
export const PKCS12_MAX_ITERATIONS_EACH = 1_000_000;
export const PKCS12_MAX_ITERATIONS_TOTAL = 3_000_000;

const CNPJ_PATTERN = /^[A-Z0-9]{12}[0-9]{2}$/;
/** The domain's `normalizeCnpj` (mask characters out, uppercase), plus the NULs some issuers pad with. */
const bareCnpj = (text: string): string => text.replace(/[\0.\-/\s]/g, '').toUpperCase();
const CN_WITH_CNPJ = /^(.*?)\s*:\s*([A-Z0-9]{12}[0-9]{2})$/;

export function readPkcs12(file: Buffer, password: string): Pkcs12Contents {
  const p12 = openPfx(file, password);

  const certificates: forge.pki.Certificate[] = [];
  let unreadableCertificates = 0;
  for (const bag of bagsOf(p12, forge.pki.oids.certBag!)) {
    if (bag.cert) certificates.push(bag.cert);
    else unreadableCertificates++;
  }
  const keys: forge.pki.rsa.PrivateKey[] = [];
  let unreadableKeys = 0;
  for (const bag of [...bagsOf(p12, forge.pki.oids.pkcs8ShroudedKeyBag!), ...bagsOf(p12, forge.pki.oids.keyBag!)]) {
    if (bag.key && isRsaPrivateKey(bag.key)) keys.push(bag.key);
    else unreadableKeys++;
  }

  if (keys.length === 0) {
    throw new Pkcs12Error(
      'no_private_key',
      unreadableKeys > 0
        ? 'the file holds a private key of a type other than RSA, which is not supported'
        : 'the file holds no private key',
    );
  }
  if (certificates.length === 0) {
    throw new Pkcs12Error(
      'no_certificate',
      unreadableCertificates > 0
        ? 'the file holds a certificate whose key is not RSA, which is not supported'
        : 'the file holds no certificate',
    );
  }

  let pair: { key: forge.pki.rsa.PrivateKey; certificate: forge.pki.Certificate } | null = null;
  for (const key of keys) {
    const certificate = certificates.find((c) => matchesKey(c, key));
    if (certificate) {
      pair = { key, certificate };
      break;
    }
  }
  if (!pair) throw new Pkcs12Error('no_certificate', 'no certificate in the file matches its private key');

  const toPem = (c: forge.pki.Certificate) => normalizePem(forge.pki.certificateToPem(c));
  const certificatePem = toPem(pair.certificate);
  return {
    certificatePem,
    privateKeyPem: normalizePem(forge.pki.privateKeyInfoToPem(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(pair.key)))),
    chainPem: [
      ...new Set(
        orderChain(
          pair.certificate,
          certificates.filter((c) => c !== pair.certificate),
        ).map(toPem),
      ),
    ].filter((pem) => pem !== certificatePem),
    lido: describeCertificate(pair.certificate),
    autoassinado: pair.certificate.isIssuer(pair.certificate),
  };
}

/** What the decider needs from a certificate (PEM or already parsed by forge). */
export function describeCertificate(certificate: forge.pki.Certificate | string): CertificadoLido {
  const cert = typeof certificate === 'string' ? forge.pki.certificateFromPem(certificate) : certificate;
  const cn = fieldText(cert.subject.attributes, '2.5.4.3');
  const cnMatch = cn !== null ? CN_WITH_CNPJ.exec(cn.trim()) : null;
  const titular = (cnMatch ? cnMatch[1] : cn?.trim()) || distinguishedName(cert.subject.attributes);
  const cnpj = cnpjFromSubjectAltName(cert) ?? (cnMatch ? cnMatch[2]! : null);
  const issuerCn = fieldText(cert.issuer.attributes, '2.5.4.3');
  return {
    titular,
    cnpj,
    emissor: issuerCn?.trim() || distinguishedName(cert.issuer.attributes),
    serial: serialHex(cert.serialNumber),
    valido_de: cert.validity.notBefore.toISOString(),
    valido_ate: cert.validity.notAfter.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Opening the PFX

type Failure = 'mac' | 'structure' | 'decrypt';

/**
 * Tells forge's error messages apart: anything about the container's shape or an algorithm forge lacks means the
 * file cannot be read as PKCS#12 whatever the password; a failed MAC means a wrong password; anything after that
 * (a padding error, garbage where decrypted content should be) is a wrong password too when the file has no MAC.
 */
const STRUCTURE_ERRORS = new RegExp(
  [
    'Cannot read PKCS#12 PFX',
    'version other than 3',
    'password integrity mode',
    'authSafe content data',
    'macData field present',
    'unsupported MAC algorithm',
    'MAC iteration count',
    'AuthenticatedSafe expected',
    'Cannot read ContentInfo',
    'SafeContents Data is not',
    'Unsupported PKCS#12 contentType',
    'Cannot read EncryptedContentInfo',
    'ContentType is not Data',
    'Unsupported OID',
    'Unsupported key derivation',
    'Unsupported encryption scheme',
    'Cannot read password-based-encryption',
    'Unsupported PRF',
    'Unknown hash algorithm',
    'iteration count must be',
  ]
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'i',
);

function classify(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  if (/MAC could not be verified/i.test(message)) return 'mac';
  if (STRUCTURE_ERRORS.test(message)) return 'structure';
  return 'decrypt';
}

const unsupported = (error: unknown): Pkcs12Error =>
  new Pkcs12Error('not_pkcs12', `the file is not a PKCS#12 that can be read (${error instanceof Error ? error.message : String(error)})`);

function parseDer(bytes: string): forge.asn1.Asn1 {
  try {
    return forge.asn1.fromDer(bytes, false);
  } catch {
    throw new Pkcs12Error('not_pkcs12', 'the file is not a PKCS#12 (.pfx/.p12) certificate');
  }
}

function attempt(der: string, password: string | null, withoutMac: boolean): forge.pkcs12.Pkcs12Pfx {
  const asn1 = parseDer(der);
  if (withoutMac && Array.isArray(asn1.value)) asn1.value.splice(2);
  // forge's typings say string, but null (no password at all) is what the PKCS#12 KDF expects for "no password".
  return forge.pkcs12.pkcs12FromAsn1(asn1, false, password as string);
}

/**
 * Passwords: the PKCS#12 KDF (MAC, 3DES, RC2) takes the password as BMPString, which forge builds from the JS
 * string; PBKDF2 (PBES2/AES) takes it as UTF-8 bytes, which forge does not do. With a non-ASCII password, a file
 * whose MAC matched but whose AES content did not decrypt is read again with the UTF-8 bytes and the (already
 * verified) MAC left out. A MAC that fails with the Unicode password is also tried with the UTF-8 bytes as
 * characters (OpenSSL before 1.1 wrote it that way), and an empty password also as no password at all.
 */
function openPfx(file: Buffer, password: string): forge.pkcs12.Pkcs12Pfx {
  try {
    return withDerivationBudget({ each: PKCS12_MAX_ITERATIONS_EACH, total: PKCS12_MAX_ITERATIONS_TOTAL }, () => openWithin(file, password));
  } catch (error) {
    if (error instanceof DerivationBudgetExceeded) throw new Pkcs12Error('too_costly', error.message);
    throw error;
  }
}

function openWithin(file: Buffer, password: string): forge.pkcs12.Pkcs12Pfx {
  const der = file.toString('binary');
  const outer = parseDer(der);
  assertPfxShape(outer);
  checkIterations(outer);
  const hasMac = Array.isArray(outer.value) && outer.value.length > 2;

  const tries: Array<{ password: string | null; withoutMac: boolean }> = [];
  let first: Failure;
  try {
    return attempt(der, password, false);
  } catch (error) {
    if (error instanceof Pkcs12Error || error instanceof DerivationBudgetExceeded) throw error;
    first = classify(error);
    if (first === 'structure') throw unsupported(error);
  }
  const utf8 = forge.util.encodeUtf8(password);
  if (utf8 !== password) tries.push({ password: utf8, withoutMac: first === 'decrypt' && hasMac });
  if (password === '' && first === 'mac') tries.push({ password: null, withoutMac: false });
  for (const t of tries) {
    try {
      return attempt(der, t.password, t.withoutMac);
    } catch (error) {
      if (error instanceof Pkcs12Error || error instanceof DerivationBudgetExceeded) throw error;
      if (classify(error) === 'structure') throw unsupported(error);
    }
  }
  throw new Pkcs12Error('wrong_password', 'the password does not open the certificate file');
}

// ---------------------------------------------------------------------------------------------------------------
// Looking at the container before forge does

const isSequence = (n: forge.asn1.Asn1 | undefined): n is forge.asn1.Asn1 & { value: forge.asn1.Asn1[] } =>
  !!n && n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === forge.asn1.Type.SEQUENCE && Array.isArray(n.value);
const isUniversal = (n: forge.asn1.Asn1 | undefined, type: forge.asn1.Type): boolean =>
  !!n && n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === type;
const children = (n: forge.asn1.Asn1 | undefined): forge.asn1.Asn1[] => (n && Array.isArray(n.value) ? n.value : []);
const oidOf = (n: forge.asn1.Asn1 | undefined): string | null =>
  isUniversal(n, forge.asn1.Type.OID) && typeof n!.value === 'string' ? forge.asn1.derToOid(n!.value) : null;

/** Contents of an OCTET STRING, primitive or (BER) constructed of chunks. */
function octets(n: forge.asn1.Asn1 | undefined): string | null {
  if (!isUniversal(n, forge.asn1.Type.OCTETSTRING)) return null;
  if (typeof n!.value === 'string') return n!.value;
  let out = '';
  for (const part of n!.value) {
    const chunk = octets(part);
    if (chunk === null) return null;
    out += chunk;
  }
  return out;
}

/** PFX ::= SEQUENCE { version INTEGER (3), authSafe ContentInfo, macData MacData OPTIONAL } */
function assertPfxShape(pfx: forge.asn1.Asn1): void {
  const [version, authSafe] = children(pfx);
  if (!isSequence(pfx) || !isUniversal(version, forge.asn1.Type.INTEGER) || !isSequence(authSafe) || oidOf(authSafe.value[0]) === null) {
    throw new Pkcs12Error('not_pkcs12', 'the file is not a PKCS#12 (.pfx/.p12) certificate');
  }
}

function integerValue(n: forge.asn1.Asn1 | undefined): number | null {
  if (!isUniversal(n, forge.asn1.Type.INTEGER) || typeof n!.value !== 'string') return null;
  const bytes = n!.value;
  let start = 0;
  while (start < bytes.length && bytes.charCodeAt(start) === 0) start++;
  if (bytes.length - start > 6) return Number.POSITIVE_INFINITY;
  let v = 0;
  for (let i = start; i < bytes.length; i++) v = v * 256 + bytes.charCodeAt(i);
  return v;
}

/**
 * Adds up the iteration counts forge would run for the MAC and every encryption it can see before decrypting
 * (encrypted safes and shrouded keys in plain safes, which is where OpenSSL, Windows and Java put them), and
 * refuses the file when they pass the limits before any derivation runs. Shapes it does not recognise are left for
 * forge to judge; what decrypted content hides is charged as forge derives it (`withDerivationBudget`).
 */
function checkIterations(pfx: forge.asn1.Asn1): void {
  let total = 0;
  const count = (iterations: number | null, derivations: number) => {
    if (iterations === null) return;
    if (iterations > PKCS12_MAX_ITERATIONS_EACH) {
      throw new Pkcs12Error(
        'too_costly',
        `the file asks for ${iterations} key-derivation iterations at once, more than the ${PKCS12_MAX_ITERATIONS_EACH} accepted`,
      );
    }
    total += iterations * derivations;
    if (total > PKCS12_MAX_ITERATIONS_TOTAL) {
      throw new Pkcs12Error('too_costly', `the file asks for more than ${PKCS12_MAX_ITERATIONS_TOTAL} key-derivation iterations in all`);
    }
  };
  const algorithm = (algId: forge.asn1.Asn1 | undefined) => {
    const params = children(algId)[1];
    if (oidOf(children(algId)[0]) === OID_PBES2) {
      // PBES2-params ::= SEQUENCE { keyDerivationFunc { pbkdf2, PBKDF2-params { salt, iterationCount, ... } }, encryptionScheme }
      count(integerValue(children(children(children(params)[0])[1])[1]), 1);
    } else {
      // PKCS#12 PBE: pkcs-12PbeParams ::= SEQUENCE { salt OCTET STRING, iterations INTEGER }; key and IV: two runs.
      count(integerValue(children(params)[1]), 2);
    }
  };
  const safeContents = (bags: forge.asn1.Asn1 | undefined, depth: number) => {
    if (depth > 3) return;
    for (const bag of children(bags)) {
      const [bagId, wrapped] = children(bag);
      const value = children(wrapped)[0];
      const id = oidOf(bagId);
      if (id === OID_SHROUDED_KEY_BAG) algorithm(children(value)[0]);
      else if (id === OID_SAFE_CONTENTS_BAG) safeContents(value, depth + 1);
    }
  };
  const parse = (der: string | null): forge.asn1.Asn1 | undefined => {
    if (der === null) return undefined;
    try {
      return forge.asn1.fromDer(der, false);
    } catch {
      return undefined;
    }
  };

  const [, authSafe, macData] = children(pfx);
  // MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }
  if (macData) count(integerValue(children(macData)[2]), 1);
  if (oidOf(children(authSafe)[0]) !== OID_DATA) return;
  for (const contentInfo of children(parse(octets(children(children(authSafe)[1])[0])))) {
    const [type, explicit] = children(contentInfo);
    const content = children(explicit)[0];
    const oid = oidOf(type);
    if (oid === OID_DATA) safeContents(parse(octets(content)), 0);
    // EncryptedData ::= SEQUENCE { version, EncryptedContentInfo { contentType, contentEncryptionAlgorithm, ... } }
    else if (oid === OID_ENCRYPTED_DATA) algorithm(children(children(content)[1])[1]);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Keys and certificates

function bagsOf(p12: forge.pkcs12.Pkcs12Pfx, bagType: string): forge.pkcs12.Bag[] {
  return p12.getBags({ bagType })[bagType] ?? [];
}

function isRsaPrivateKey(key: unknown): key is forge.pki.rsa.PrivateKey {
  return typeof key === 'object' && key !== null && 'n' in key && 'd' in key;
}

function matchesKey(certificate: forge.pki.Certificate, key: forge.pki.rsa.PrivateKey): boolean {
  const publicKey = certificate.publicKey as Partial<forge.pki.rsa.PublicKey>;
  return !!publicKey.n && !!publicKey.e && publicKey.n.equals(key.n) && publicKey.e.equals(key.e);
}

/** Issuer of the end-entity first, then its issuer, and so on; certificates outside that path after them. */
function orderChain(leaf: forge.pki.Certificate, others: forge.pki.Certificate[]): forge.pki.Certificate[] {
  const ordered: forge.pki.Certificate[] = [];
  const rest = [...others];
  let current = leaf;
  for (;;) {
    const index = rest.findIndex((c) => isIssuerOf(c, current));
    if (index < 0) break;
    current = rest.splice(index, 1)[0]!;
    ordered.push(current);
  }
  return [...ordered, ...rest];
}

function isIssuerOf(parent: forge.pki.Certificate, child: forge.pki.Certificate): boolean {
  try {
    return child.isIssuer(parent);
  } catch {
    return false;
  }
}

const normalizePem = (pem: string): string => pem.replace(/\r\n/g, '\n');

// ---------------------------------------------------------------------------------------------------------------
// Names

/** Decodes an ASN.1 string value as forge hands it over (the raw content octets). */
function asn1Text(value: string, type: number | undefined): string {
  switch (type) {
    case forge.asn1.Type.UTF8:
      try {
        return forge.util.decodeUtf8(value);
      } catch {
        return value;
      }
    case forge.asn1.Type.BMPSTRING: {
      let out = '';
      for (let i = 0; i + 1 < value.length; i += 2) out += String.fromCharCode((value.charCodeAt(i) << 8) | value.charCodeAt(i + 1));
      return out;
    }
    case 28: {
      // UniversalString: UCS-4 big endian
      let out = '';
      for (let i = 0; i + 3 < value.length; i += 4) {
        const code =
          ((value.charCodeAt(i) << 24) | (value.charCodeAt(i + 1) << 16) | (value.charCodeAt(i + 2) << 8) | value.charCodeAt(i + 3)) >>> 0;
        out += String.fromCodePoint(code);
      }
      return out;
    }
    default:
      // PrintableString, IA5String, TeletexString (Latin-1 in practice), OCTET STRING
      return value;
  }
}

function fieldText(attributes: forge.pki.CertificateField[], oid: string): string | null {
  const field = attributes.find((a) => a.type === oid);
  if (!field || typeof field.value !== 'string') return null;
  return asn1Text(field.value, field.valueTagClass as number | undefined);
}

/** RFC 4514 style, most specific first: `CN=..., OU=..., O=ICP-Brasil, C=BR`. */
function distinguishedName(attributes: forge.pki.CertificateField[]): string {
  return [...attributes]
    .reverse()
    .map((a) => `${a.shortName ?? a.type}=${typeof a.value === 'string' ? asn1Text(a.value, a.valueTagClass as number | undefined) : ''}`)
    .join(', ');
}

function serialHex(serial: string): string {
  const hex = serial.toUpperCase();
  return hex.replace(/^(?:00)+(?=[0-9A-F]{2})/, '') || '00';
}

/**
 * The CNPJ from the ICP-Brasil otherName 2.16.76.1.3.3 of the subjectAltName. forge keeps otherNames as raw ASN.1,
 * so the extension is read here: GeneralName otherName ::= [0] { type-id OID, value [0] EXPLICIT ANY }, whose value
 * ICP-Brasil stores as OCTET STRING or PrintableString (UTF8String and IA5String are accepted too).
 */
export function cnpjFromSubjectAltName(certificate: forge.pki.Certificate): string | null {
  const extension = (certificate.extensions as Array<{ id?: string; value?: unknown }>).find((e) => e.id === OID_SUBJECT_ALT_NAME);
  if (!extension || typeof extension.value !== 'string') return null;
  let names: forge.asn1.Asn1;
  try {
    names = forge.asn1.fromDer(extension.value, false);
  } catch {
    return null;
  }
  for (const name of children(names)) {
    if (name.tagClass !== forge.asn1.Class.CONTEXT_SPECIFIC || name.type !== 0 || !Array.isArray(name.value)) continue;
    const [typeId, wrapped] = name.value;
    if (oidOf(typeId) !== OID_ICP_BRASIL_CNPJ || !wrapped) continue;
    const inner = wrapped.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && Array.isArray(wrapped.value) ? wrapped.value[0] : wrapped;
    const text = inner ? otherNameText(inner) : null;
    if (text === null) continue;
    const cnpj = bareCnpj(text);
    if (CNPJ_PATTERN.test(cnpj)) return cnpj;
  }
  return null;
}

function otherNameText(node: forge.asn1.Asn1): string | null {
  if (node.tagClass !== forge.asn1.Class.UNIVERSAL) return null;
  if (node.type === forge.asn1.Type.OCTETSTRING) {
    const raw = octets(node);
    if (raw === null) return null;
    // Some issuers wrap a string type inside the OCTET STRING; a bare CNPJ never starts with a string tag.
    try {
      const nested = forge.asn1.fromDer(raw, true);
      if (isStringType(nested) && typeof nested.value === 'string') return asn1Text(nested.value, nested.type);
    } catch {
      // not nested: the octets are the characters
    }
    return raw;
  }
  if (isStringType(node) && typeof node.value === 'string') return asn1Text(node.value, node.type);
  return null;
}

function isStringType(node: forge.asn1.Asn1): boolean {
  return (
    node.tagClass === forge.asn1.Class.UNIVERSAL &&
    [forge.asn1.Type.UTF8, forge.asn1.Type.PRINTABLESTRING, forge.asn1.Type.IA5STRING, forge.asn1.Type.BMPSTRING, 20, 28].includes(
      node.type,
    )
  );
}
