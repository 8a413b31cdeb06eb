import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as forge from 'node-forge';
import { OID_ICP_BRASIL_CNPJ } from './pkcs12';

/**
 * A sandbox-only A1: a self-signed PKCS#12 naming the company's CNPJ both ways the upload reads it (`NAME:CNPJ`
 * common name and the ICP-Brasil otherName 2.16.76.1.3.3). The simulated authority signs with whatever key the
 * company sent; a real authority trusts only ICP-Brasil's chain, and the upload refuses a self-signed certificate in
 * production (`certificado_autoassinado`), so this file never issues a real document.
 */
export interface CertificadoDeTeste {
  pfx: Buffer;
  senha: string;
  nomeArquivo: string;
}

/** What the subject says besides the name, so that a person reading the certificate knows what it is. */
export const UNIDADE_CERTIFICADO_DE_TESTE = 'CERTIFICADO DE TESTE - SOMENTE HOMOLOGACAO';

const DIA_MS = 86_400_000;

export function certificadoDeTeste(o: { cnpj: string; razaoSocial: string; agora?: Date; validadeDias?: number }): CertificadoDeTeste {
  // Node's key generation is native (milliseconds); forge's is plain JavaScript (seconds for RSA 2048).
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  const agora = o.agora ?? new Date();
  const utf8 = forge.asn1.Type.UTF8 as number as forge.asn1.Class;
  // The common name is at most 64 characters (RFC 5280 ub-common-name): the CNPJ and its colon are kept whole.
  const nome = `${o.razaoSocial.slice(0, 64 - o.cnpj.length - 1)}:${o.cnpj}`;
  const subject: forge.pki.CertificateField[] = [
    { shortName: 'C', value: 'BR' },
    { shortName: 'O', value: 'frete-fiscal sandbox', valueTagClass: utf8 },
    { shortName: 'OU', value: UNIDADE_CERTIFICADO_DE_TESTE, valueTagClass: utf8 },
    { shortName: 'CN', value: nome, valueTagClass: utf8 },
  ];

  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x10;
  cert.serialNumber = serial.toString('hex');
  // A day back, so that a clock a little behind the issuer's still finds it valid.
  cert.validity.notBefore = new Date(Math.floor((agora.getTime() - DIA_MS) / 1000) * 1000);
  cert.validity.notAfter = new Date(Math.floor((agora.getTime() + (o.validadeDias ?? 5 * 365) * DIA_MS) / 1000) * 1000);
  cert.setSubject(subject);
  cert.setIssuer(subject);
  const { asn1 } = forge;
  const cnpjOtherName = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(OID_ICP_BRASIL_CNPJ).getBytes()),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, o.cnpj)]),
  ]);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true },
    { name: 'subjectKeyIdentifier' },
    { id: '2.5.29.17', name: 'subjectAltName', value: asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [cnpjOtherName]) },
  ]);
  cert.sign(key, forge.md.sha256.create());

  const senha = randomBytes(12).toString('base64url');
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], senha, { algorithm: 'aes256', generateLocalKeyId: true });
  return {
    pfx: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'),
    senha,
    nomeArquivo: `teste-homologacao-${o.cnpj}.pfx`,
  };
}
