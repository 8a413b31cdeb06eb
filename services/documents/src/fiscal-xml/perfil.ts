import { createHash, createPrivateKey, sign, verify, type KeyObject, X509Certificate } from 'node:crypto';
import { C14nCanonicalization } from 'xml-crypto';
import { C14N_10, FISCAL_TRANSFORMS, RSA_SHA1, SHA1, XMLDSIG_NS, pemFromBase64, type XmlElement, type XmlNode } from './dom';

/**
 * The fiscal signature profile computed directly (issue 14): the document is parsed once, the signed element is
 * canonicalised once, the SignedInfo is written in its canonical form by this module, and the keys and certificates
 * are parsed once per process. What the generic XML-DSig pipeline spent (a second parse, XPath, PEM parsing per
 * document) goes away; the bytes are the same.
 *
 * Documents of the plain shape are read as a light tree and canonicalised by c14n.ts (light-dom.ts says which, and
 * test/documents/fiscal-xml-c14n.test.ts holds its C14N to xml-crypto's and libxml2's). Others read by xmldom take
 * this path with xml-crypto's C14N when the signed element's ancestors declare no prefixed namespace (they would be
 * imported into its canonical form) and the document has no comment; anything else goes the generic way.
 */

const C14N = new C14nCanonicalization();

/** Whether the fast path applies: no prefixed namespace on the way up and no comment anywhere. */
export function perfilSimples(xml: string, alvo: XmlElement): boolean {
  if (xml.includes('<!--')) return false;
  for (let n: XmlNode | null = alvo.parentNode; n && n.nodeType === 1; n = n.parentNode) {
    const el = n as XmlElement & { attributes?: { length: number; item(i: number): { name: string } | null } };
    const attrs = el.attributes;
    if (!attrs) return false;
    for (let i = 0; i < attrs.length; i++) if (attrs.item(i)?.name.startsWith('xmlns:')) return false;
  }
  return true;
}

/** C14N 1.0 of an element whose ancestors bring only a default namespace (it is rendered from the element's own). */
export const canonico = (el: XmlNode): string => C14N.process(el as never, { ancestorNamespaces: [], defaultNsForPrefix: {} }) as string;

export const digestSha1 = (texto: string): string => createHash('sha1').update(texto, 'utf8').digest('base64');

/** The SignedInfo of the profile in its canonical form (what RSA-SHA1 signs). */
export const signedInfoCanonico = (id: string, digest: string): string =>
  `<SignedInfo xmlns="${XMLDSIG_NS}"><CanonicalizationMethod Algorithm="${C14N_10}"></CanonicalizationMethod>` +
  `<SignatureMethod Algorithm="${RSA_SHA1}"></SignatureMethod><Reference URI="#${id}"><Transforms>` +
  FISCAL_TRANSFORMS.map((t) => `<Transform Algorithm="${t}"></Transform>`).join('') +
  `</Transforms><DigestMethod Algorithm="${SHA1}"></DigestMethod><DigestValue>${digest}</DigestValue></Reference></SignedInfo>`;

/** The Signature element as it goes into the document (the SignedInfo as the generic pipeline writes it). */
export const assinaturaXml = (id: string, digest: string, valor: string, certificadoBase64: string): string =>
  `<Signature xmlns="${XMLDSIG_NS}"><SignedInfo><CanonicalizationMethod Algorithm="${C14N_10}"/>` +
  `<SignatureMethod Algorithm="${RSA_SHA1}"/><Reference URI="#${id}"><Transforms>` +
  FISCAL_TRANSFORMS.map((t) => `<Transform Algorithm="${t}"/>`).join('') +
  `</Transforms><DigestMethod Algorithm="${SHA1}"/><DigestValue>${digest}</DigestValue></Reference></SignedInfo>` +
  `<SignatureValue>${valor}</SignatureValue><KeyInfo><X509Data><X509Certificate>${certificadoBase64}</X509Certificate></X509Data></KeyInfo></Signature>`;

export const assinarRsaSha1 = (texto: string, chave: KeyObject): string =>
  sign('RSA-SHA1', Buffer.from(texto, 'utf8'), chave).toString('base64');

export const verificarRsaSha1 = (texto: string, chave: KeyObject, valor: string): boolean =>
  verify('RSA-SHA1', Buffer.from(texto, 'utf8'), chave, Buffer.from(valor.replace(/\s+/g, ''), 'base64'));

/** A small bounded memo: a process signs with a handful of companies' keys and checks a handful of certificates. */
function memo<T>(limite: number): (chave: string, fazer: () => T) => T {
  const guardados = new Map<string, T>();
  return (chave, fazer) => {
    const achado = guardados.get(chave);
    if (achado !== undefined) return achado;
    const feito = fazer();
    guardados.set(chave, feito);
    if (guardados.size > limite) guardados.delete(guardados.keys().next().value!);
    return feito;
  };
}

const chavesPrivadas = memo<KeyObject>(64);
const certificados = memo<{ pem: string; publica: KeyObject | null }>(256);
/** Per key object (one per private key PEM, above): the certificates already checked against it. */
const pares = new WeakMap<KeyObject, Map<string, boolean>>();

export const chavePrivada = (pem: string): KeyObject => chavesPrivadas(pem, () => createPrivateKey(pem));

/** Whether the certificate matches the key (checked once per pair). Throws when the certificate cannot be read. */
export function certificadoDaChave(certificadoPem: string, chave: KeyObject): boolean {
  let daChave = pares.get(chave);
  if (!daChave) pares.set(chave, (daChave = new Map()));
  let confere = daChave.get(certificadoPem);
  if (confere === undefined) {
    confere = new X509Certificate(certificadoPem).checkPrivateKey(chave);
    if (daChave.size >= 64) daChave.clear();
    daChave.set(certificadoPem, confere);
  }
  return confere;
}

/**
 * The certificate a KeyInfo carries (its base64 DER as written): its PEM and public key, null when it cannot be
 * read. Keyed by the certificate's own bytes, it is parsed once per certificate (a batch's documents carry the same).
 */
export const certificadoDoKeyInfo = (base64: string): { pem: string; publica: KeyObject | null } =>
  certificados(base64, () => {
    const pem = pemFromBase64(base64);
    try {
      return { pem, publica: new X509Certificate(pem).publicKey };
    } catch {
      return { pem, publica: null };
    }
  });
