import { createCipheriv, createPrivateKey, pbkdf2Sync, randomBytes } from 'node:crypto';
import * as forge from 'node-forge';

/**
 * PKCS#12 files that ask for a lot of key-derivation work, as an attacker would send them. They are built by hand
 * (ASN.1) and encrypted with Node's native PBKDF2: forge would spend seconds on each million iterations here.
 */

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
  hmacWithSha256: '1.2.840.113549.2.9',
  aes256Cbc: '2.16.840.1.101.3.4.1.42',
};

const seq = (...items: Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const oid = (id: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(id).getBytes());
const int = (n: number) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const octets = (bytes: Buffer) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes.toString('binary'));
const nul = () => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '');
const explicit0 = (item: Asn1) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [item]);
const der = (item: Asn1) => Buffer.from(asn1.toDer(item).getBytes(), 'binary');

/** PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC) of `plain`: the AlgorithmIdentifier and the ciphertext. */
function pbes2(plain: Buffer, password: string, iterations: number): { algorithm: Asn1; encrypted: Buffer } {
  const salt = randomBytes(16);
  const iv = randomBytes(16);
  const key = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, 32, 'sha256');
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final()]);
  const kdf = seq(oid(OID.pbkdf2), seq(octets(salt), int(iterations), seq(oid(OID.hmacWithSha256), nul())));
  return { algorithm: seq(oid(OID.pbes2), seq(kdf, seq(oid(OID.aes256Cbc), octets(iv)))), encrypted };
}

/**
 * A PFX without a MAC whose only visible encryption is cheap (an encrypted safe at 2,048 iterations), and whose
 * decrypted content holds `bags` copies of a shrouded key bag, each `iterations` of PBKDF2 to decrypt. Each bag
 * decrypts (the key is real), so a reader that follows them derives every one.
 */
export function pfxHidingKeyBags(o: { privateKeyPem: string; password: string; bags: number; iterations: number }): Buffer {
  const pkcs8 = createPrivateKey(o.privateKeyPem).export({ type: 'pkcs8', format: 'der' });
  const shrouded = pbes2(pkcs8, o.password, o.iterations); // derived once: the file repeats the same bag
  const bag = seq(oid(OID.shroudedKeyBag), explicit0(seq(shrouded.algorithm, octets(shrouded.encrypted))));
  const safeContents = der(seq(...Array.from({ length: o.bags }, () => bag)));
  const safe = pbes2(safeContents, o.password, 2048);
  const encryptedContent = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, safe.encrypted.toString('binary'));
  const encryptedData = seq(int(0), seq(oid(OID.data), safe.algorithm, encryptedContent));
  const authSafe = seq(seq(oid(OID.encryptedData), explicit0(encryptedData)));
  return der(seq(int(3), seq(oid(OID.data), explicit0(octets(der(authSafe))))));
}

/**
 * The PFX with its MAC asking for `iterations` (the MAC value is left as it was, so no password verifies it: the
 * reader derives the MAC key and then finds a wrong password).
 */
export function withMacIterations(pfx: Buffer, iterations: number): Buffer {
  const outer = asn1.fromDer(pfx.toString('binary'));
  const macData = (outer.value as Asn1[])[2]!;
  (macData.value as Asn1[])[2] = int(iterations);
  return der(outer);
}
