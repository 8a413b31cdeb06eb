import { type KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import {
  C14N_10,
  FISCAL_TRANSFORMS,
  RSA_SHA1,
  SAFE_NAME,
  SHA1,
  countIds,
  elementSpec,
  elementsNamed,
  isElement,
  parseForSignature,
  pemBody,
  signatureChildren,
  withBareEndTags,
} from './dom';
import { canonicalLight } from './c14n';
import { LightElement } from './light-dom';
import { parentEndTagOffset } from './scan';
import {
  assinarRsaSha1,
  assinaturaXml,
  canonico,
  certificadoDaChave,
  chavePrivada,
  digestSha1,
  perfilSimples,
  signedInfoCanonico,
} from './perfil';

/**
 * Enveloped XML-DSig of a fiscal document as the authorities require it (CT-e 4.00, MDF-e 3.00 and their events):
 * the signed element is `element` (`infCte`, `infMDFe`, `infEvento`) by its `Id`, canonicalised with C14N 1.0
 * after the enveloped-signature transform, digested with SHA-1 and signed with RSA-SHA1; `KeyInfo` carries the
 * signer's certificate; the `Signature` is appended as the last child of the element's parent (`CTe`, `MDFe`,
 * `eventoCTe`, `eventoMDFe`).
 *
 * The signature is computed directly in the plain case (perfil.ts) and by xml-crypto otherwise; the returned text is
 * the input with the `Signature` inserted before the parent's end tag, every other byte unchanged (no
 * re-serialisation: declaration, entity references, attribute quoting and spacing stay as they were).
 */
export interface SignFiscalXmlOptions {
  /**
   * Local name of the signed element, e.g. `infCte`, or `parent/element` (`eventoCTe/infEvento`) to tell it from
   * others of the same name. It must occur once and carry an `Id`.
   */
  element: string;
  /** RSA private key, PEM (PKCS#8 or PKCS#1). */
  privateKeyPem: string;
  /** The signer's certificate, PEM; it must match the private key. */
  certificatePem: string;
}

export type FiscalSignError =
  | 'hostile_xml'
  | 'malformed_xml'
  | 'element_not_found'
  | 'element_not_unique'
  | 'missing_id'
  | 'duplicate_id'
  | 'no_parent'
  | 'already_signed'
  | 'invalid_key'
  | 'key_mismatch';

export class FiscalSignatureError extends Error {
  constructor(
    readonly reason: FiscalSignError,
    message: string,
  ) {
    super(message);
    this.name = 'FiscalSignatureError';
  }
}

export function signFiscalXml(xml: string, options: SignFiscalXmlOptions): string {
  const { privateKeyPem, certificatePem } = options;
  const spec = elementSpec(options.element);
  if (!spec) throw new FiscalSignatureError('element_not_found', `not an element name: ${options.element}`);
  const element = spec.name;

  const parsed = parseForSignature(xml);
  if ('refused' in parsed) throw new FiscalSignatureError(parsed.refused, `the XML cannot be signed: ${parsed.message}`);
  const { doc } = parsed;

  const targets = elementsNamed(doc, spec);
  if (targets.length === 0) throw new FiscalSignatureError('element_not_found', `the XML has no element ${element}`);
  if (targets.length > 1) throw new FiscalSignatureError('element_not_unique', `the XML has ${targets.length} elements ${element}`);
  const target = targets[0]!;
  const id = target.getAttribute('Id') ?? '';
  if (!id) throw new FiscalSignatureError('missing_id', `${element} has no Id attribute`);
  if (!SAFE_NAME.test(id)) throw new FiscalSignatureError('missing_id', `${element} has an Id that is not a name: ${id}`);
  if (countIds(doc, id) !== 1) throw new FiscalSignatureError('duplicate_id', `more than one element has the Id ${id}`);
  const parent = target.parentNode;
  if (!isElement(parent)) throw new FiscalSignatureError('no_parent', `${element} is the root element; the signature goes into its parent`);
  if (signatureChildren(parent).length > 0)
    throw new FiscalSignatureError('already_signed', `${parent.localName} already holds a Signature`);

  const { key, certificateBase64 } = keyMaterial(privateKeyPem, certificatePem);

  const direto = (canonical: string) => {
    const digest = digestSha1(canonical);
    return assinaturaXml(id, digest, assinarRsaSha1(signedInfoCanonico(id, digest), key), certificateBase64);
  };
  // The light tree knows where the parent's end tag is; after xmldom, the text is scanned for it.
  if (target instanceof LightElement && parent instanceof LightElement) {
    const at = parent.endTagOffset;
    return xml.slice(0, at) + direto(canonicalLight(target)) + xml.slice(at);
  }
  const signature = perfilSimples(xml, target)
    ? direto(canonico(target))
    : assinaturaGenerica(xml, element, id, key, certificatePem, certificateBase64);
  let at: number;
  try {
    at = parentEndTagOffset(xml, spec);
  } catch (error) {
    throw new FiscalSignatureError('malformed_xml', `the XML cannot be signed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return xml.slice(0, at) + signature + xml.slice(at);
}

/** xml-crypto's pipeline, for what the profile's direct path does not take (prefixed ancestors, comments). */
function assinaturaGenerica(
  xml: string,
  element: string,
  id: string,
  key: KeyObject,
  certificatePem: string,
  certificateBase64: string,
): string {
  const signer = new SignedXml({
    privateKey: key.export({ format: 'pem', type: 'pkcs8' }) as string,
    publicCert: certificatePem,
    canonicalizationAlgorithm: C14N_10,
    signatureAlgorithm: RSA_SHA1,
    getKeyInfoContent: () => `<X509Data><X509Certificate>${certificateBase64}</X509Certificate></X509Data>`,
  });
  const targetXpath = `//*[local-name(.)='${element}' and @Id='${id}']`;
  signer.addReference({ xpath: targetXpath, transforms: [...FISCAL_TRANSFORMS], digestAlgorithm: SHA1 });
  signer.computeSignature(withBareEndTags(xml), { location: { reference: `${targetXpath}/..`, action: 'append' } });
  return signer.getSignatureXml();
}

function keyMaterial(privateKeyPem: string, certificatePem: string): { key: KeyObject; certificateBase64: string } {
  let key: KeyObject;
  try {
    key = chavePrivada(privateKeyPem);
  } catch (error) {
    throw new FiscalSignatureError(
      'invalid_key',
      `the private key cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new FiscalSignatureError('invalid_key', `the private key is ${key.asymmetricKeyType}, not RSA`);
  let certificateBase64: string;
  let matches: boolean;
  try {
    certificateBase64 = pemBody(certificatePem);
    matches = certificadoDaChave(certificatePem, key);
  } catch (error) {
    throw new FiscalSignatureError(
      'invalid_key',
      `the certificate cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!matches) throw new FiscalSignatureError('key_mismatch', 'the certificate does not match the private key');
  return { key, certificateBase64 };
}
