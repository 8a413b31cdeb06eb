import { SignedXml } from 'xml-crypto';
import {
  C14N_10,
  FISCAL_TRANSFORMS,
  RSA_SHA1,
  SAFE_NAME,
  SHA1,
  XMLDSIG_NS,
  childElements,
  countIds,
  elementSpec,
  elementsNamed,
  isElement,
  parseForSignature,
  signatureChildren,
  type XmlElement,
  type XmlNode,
  withBareEndTags,
} from './dom';
import { canonicalLight } from './c14n';
import { LightElement } from './light-dom';
import { canonico, certificadoDoKeyInfo, digestSha1, perfilSimples, verificarRsaSha1 } from './perfil';

/**
 * Checks the enveloped signature of a fiscal document the way the authority does: the `Signature` child of the
 * signed element's parent must follow the fiscal profile exactly (C14N 1.0, RSA-SHA1, one Reference to
 * `#<Id of element>` with the enveloped-signature and C14N transforms, SHA-1), its digest must match the
 * element, and its value must verify with the certificate carried in `KeyInfo/X509Data/X509Certificate`.
 *
 * It does not judge the certificate (chain, validity dates, revocation, whose CNPJ): `certificatePem` is handed
 * back for the caller to do that.
 */
export interface FiscalSignatureCheck {
  valid: boolean;
  /** Why the signature is not valid. */
  reason?: string;
  /** The certificate from KeyInfo, PEM, when the signature is valid. */
  certificatePem?: string;
}

export interface VerifyFiscalSignatureOptions {
  /** Local name of the signed element, e.g. `infCte`, or `parent/element` (`eventoCTe/infEvento`) inside a wrapper. */
  element: string;
}

const invalid = (reason: string): FiscalSignatureCheck => ({ valid: false, reason });

const attr = (el: XmlElement | undefined, name: string): string | null => (el && el.hasAttribute(name) ? el.getAttribute(name) : null);

const dsChildren = (parent: XmlNode, name: string): XmlElement[] =>
  childElements(parent).filter((el) => el.localName === name && el.namespaceURI === XMLDSIG_NS);

export function verifyFiscalSignature(xml: string, options: VerifyFiscalSignatureOptions): FiscalSignatureCheck {
  const spec = elementSpec(options.element);
  if (!spec) return invalid(`not an element name: ${options.element}`);
  const element = spec.name;
  const parsed = parseForSignature(xml);
  if ('refused' in parsed) return invalid(`${parsed.refused === 'hostile_xml' ? 'hostile' : 'malformed'} XML: ${parsed.message}`);
  const { doc } = parsed;

  const targets = elementsNamed(doc, spec);
  if (targets.length !== 1) return invalid(targets.length === 0 ? `no element ${element}` : `${targets.length} elements ${element}`);
  const target = targets[0]!;
  const id = attr(target, 'Id');
  if (!id) return invalid(`${element} has no Id`);
  if (!SAFE_NAME.test(id)) return invalid(`${element} has an Id that is not a name`);
  if (countIds(doc, id) !== 1) return invalid(`more than one element has the Id ${id}`);
  const parent = target.parentNode;
  if (!isElement(parent)) return invalid(`${element} has no parent to hold the signature`);

  const signatures = signatureChildren(parent);
  if (signatures.length === 0) return invalid(`${parent.localName} holds no Signature`);
  if (signatures.length > 1) return invalid(`${parent.localName} holds ${signatures.length} Signature elements`);
  const signature = signatures[0]!;

  // The profile, checked before any cryptography: nothing else may be accepted (no other algorithm, no second
  // reference, no reference to another element).
  const [signedInfo, ...moreSignedInfo] = dsChildren(signature, 'SignedInfo');
  if (!signedInfo || moreSignedInfo.length) return invalid('the Signature must have one SignedInfo');
  const c14n = dsChildren(signedInfo, 'CanonicalizationMethod');
  if (c14n.length !== 1 || attr(c14n[0], 'Algorithm') !== C14N_10) return invalid(`CanonicalizationMethod must be ${C14N_10}`);
  const method = dsChildren(signedInfo, 'SignatureMethod');
  if (method.length !== 1 || attr(method[0], 'Algorithm') !== RSA_SHA1) return invalid(`SignatureMethod must be ${RSA_SHA1}`);
  const references = dsChildren(signedInfo, 'Reference');
  if (references.length !== 1) return invalid(`SignedInfo must have exactly one Reference, it has ${references.length}`);
  const reference = references[0]!;
  const uri = attr(reference, 'URI');
  if (uri !== `#${id}`) return invalid(`the Reference points at ${uri === null ? 'nothing' : JSON.stringify(uri)}, not at #${id}`);
  const transforms = dsChildren(reference, 'Transforms').flatMap((t) => dsChildren(t, 'Transform'));
  const algorithms = transforms.map((t) => attr(t, 'Algorithm'));
  if (algorithms.length !== FISCAL_TRANSFORMS.length || algorithms.some((a, i) => a !== FISCAL_TRANSFORMS[i])) {
    return invalid(`the Reference transforms must be ${FISCAL_TRANSFORMS.join(', ')}`);
  }
  if (transforms.some((t) => childElements(t).length > 0)) return invalid('the Reference transforms take no parameters');
  const digest = dsChildren(reference, 'DigestMethod');
  if (digest.length !== 1 || attr(digest[0], 'Algorithm') !== SHA1) return invalid(`DigestMethod must be ${SHA1}`);

  const certificates = dsChildren(signature, 'KeyInfo')
    .flatMap((k) => dsChildren(k, 'X509Data'))
    .flatMap((d) => dsChildren(d, 'X509Certificate'));
  if (certificates.length !== 1) return invalid(`KeyInfo must carry one X509Certificate, it has ${certificates.length}`);
  const digestValues = dsChildren(reference, 'DigestValue');
  const signatureValues = dsChildren(signature, 'SignatureValue');
  if (digestValues.length !== 1 || signatureValues.length !== 1)
    return invalid('the Signature must have one DigestValue and one SignatureValue');
  // Read as text by every path alike: markup inside them is not taken apart (xml-crypto would read only its first text).
  if ([digestValues[0]!, signatureValues[0]!, certificates[0]!].some((el) => childElements(el).length > 0))
    return invalid('DigestValue, SignatureValue and X509Certificate hold text only');
  const { pem: certificatePem, publica } = certificadoDoKeyInfo(certificates[0]!.textContent ?? '');
  if (!publica) return invalid('the certificate in KeyInfo cannot be read');

  // The profile is fixed and checked above: in the plain case the check is computed directly (see perfil.ts), on
  // the light tree with its own C14N when the document was read as one, with xml-crypto's C14N on xmldom's otherwise.
  const direct =
    target instanceof LightElement && signedInfo instanceof LightElement
      ? { element: canonicalLight(target), signedInfo: canonicalLight(signedInfo) }
      : signature.nodeName === 'Signature' && perfilSimples(xml, target) && perfilSimples(xml, signedInfo)
        ? { element: canonico(target), signedInfo: canonico(signedInfo) }
        : null;
  if (direct) {
    const digestValue = (digestValues[0]!.textContent ?? '').trim();
    if (digestSha1(direct.element) !== digestValue)
      return invalid(`the digest of ${element} does not match: the signed content was changed`);
    const valor = signatureValues[0]!.textContent ?? '';
    if (!verificarRsaSha1(direct.signedInfo, publica, valor))
      return invalid('the SignatureValue does not verify with the certificate in KeyInfo');
    return { valid: true, certificatePem };
  }

  const checker = new SignedXml({
    publicCert: certificatePem,
    getCertFromKeyInfo: () => null,
  });
  try {
    // xmldom's element is the DOM Node xml-crypto wants, under whichever lib declares Node.
    checker.loadSignature(signature as unknown as Parameters<typeof checker.loadSignature>[0]);
    if (!checker.checkSignature(withBareEndTags(xml))) {
      const failure = checker.getReferences().find((r) => r.validationError)?.validationError;
      return invalid(
        failure && /digest/i.test(failure.message)
          ? `the digest of ${element} does not match: the signed content was changed`
          : `the Reference to #${id} does not verify`,
      );
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/signature value .* is incorrect/s.test(message))
      return invalid('the SignatureValue does not verify with the certificate in KeyInfo');
    return invalid(`the signature cannot be checked: ${message.slice(0, 200)}`);
  }
  // Only what the check authenticated counts: exactly the one reference, to this element.
  if (checker.getSignedReferences().length !== 1) return invalid('the signature does not cover exactly the signed element');
  return { valid: true, certificatePem };
}
