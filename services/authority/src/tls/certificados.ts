import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import * as forge from 'node-forge';

/**
 * Certificates for the local authority's own TLS: a development CA and the server certificates it issues (for
 * `localhost`, `127.0.0.1`…). Node has no API to issue X.509 certificates, so node-forge (already the platform's
 * PKCS#12 reader) builds them; the keys come from Node's crypto. Never the carriers' A1: those come from ICP-Brasil
 * (or a test CA) and are only verified here.
 */

export interface ParPem {
  /** The certificate, PEM. */
  cert: string;
  /** Its private key, PEM (PKCS#1). */
  key: string;
}

export interface Validade {
  notBefore?: Date;
  notAfter?: Date;
}

const DIA = 86_400_000;

function parDeChaves(): { privada: forge.pki.rsa.PrivateKey; publica: forge.pki.rsa.PublicKey; pem: string } {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const privada = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privada, publica: forge.pki.setRsaPublicKey(privada.n, privada.e), pem: privateKey };
}

/** A positive serial of 16 random bytes (hex), as CAs draw them. */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x10;
  return bytes.toString('hex');
}

const pem = (c: forge.pki.Certificate) => forge.pki.certificateToPem(c).replace(/\r\n/g, '\n');

/** A self-signed CA named `nome`, for the server certificates of a development or test setup. */
export function gerarAc(nome: string, validade: Validade = {}): ParPem {
  const chaves = parDeChaves();
  const cert = forge.pki.createCertificate();
  cert.publicKey = chaves.publica;
  cert.serialNumber = serial();
  cert.validity.notBefore = validade.notBefore ?? new Date(Date.now() - DIA);
  cert.validity.notAfter = validade.notAfter ?? new Date(Date.now() + 10 * 365 * DIA);
  const nomes = [
    { shortName: 'C', value: 'BR' },
    { shortName: 'O', value: 'frete-fiscal' },
    { shortName: 'CN', value: nome },
  ];
  cert.setSubject(nomes);
  cert.setIssuer(nomes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(chaves.privada, forge.md.sha256.create());
  return { cert: pem(cert), key: chaves.pem };
}

/**
 * A TLS server certificate issued by `ac` for `nomes` (host names and IP addresses, each in subjectAltName, which is
 * what clients check). The first name is also the common name.
 */
export function emitirCertificadoServidor(ac: ParPem, nomes: readonly string[], validade: Validade = {}): ParPem {
  if (nomes.length === 0) throw new Error('a server certificate needs at least one name');
  const emissor = forge.pki.certificateFromPem(ac.cert);
  const chaveEmissor = forge.pki.privateKeyFromPem(ac.key);
  const chaves = parDeChaves();
  const cert = forge.pki.createCertificate();
  cert.publicKey = chaves.publica;
  cert.serialNumber = serial();
  cert.validity.notBefore = validade.notBefore ?? new Date(Date.now() - DIA);
  cert.validity.notAfter = validade.notAfter ?? new Date(Date.now() + 2 * 365 * DIA);
  cert.setSubject([
    { shortName: 'C', value: 'BR' },
    { shortName: 'O', value: 'frete-fiscal' },
    { shortName: 'CN', value: nomes[0]! },
  ]);
  cert.setIssuer(emissor.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: emissor.generateSubjectKeyIdentifier().getBytes() },
    { name: 'subjectAltName', altNames: nomes.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
  ]);
  cert.sign(chaveEmissor, forge.md.sha256.create());
  return { cert: pem(cert), key: chaves.pem };
}
