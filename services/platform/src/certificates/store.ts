import { type SecureBlobs } from '../secrets/blobs';

/** The purpose of the blob that holds a company's A1 certificate file and its password. */
export const CERTIFICATE_PURPOSE = 'certificado-a1';

export interface SealedCertificate {
  pfx: Buffer;
  password: string;
}

interface CertificatePayload {
  pfx: string;
  password: string;
}

/** Seals the file and its password together as one blob; the returned id is all an event may carry. */
export function sealCertificate(blobs: SecureBlobs, companyId: string, certificate: SealedCertificate): Promise<string> {
  const payload: CertificatePayload = { pfx: certificate.pfx.toString('base64'), password: certificate.password };
  return blobs.put(companyId, CERTIFICATE_PURPOSE, Buffer.from(JSON.stringify(payload), 'utf8'));
}

/** The file and password behind a blob id, or null when the company has no such certificate blob. */
export async function openCertificate(blobs: SecureBlobs, blobId: string, companyId: string): Promise<SealedCertificate | null> {
  const raw = await blobs.get(blobId, companyId, CERTIFICATE_PURPOSE);
  if (!raw) return null;
  const payload = JSON.parse(raw.toString('utf8')) as Partial<CertificatePayload>;
  if (typeof payload.pfx !== 'string' || typeof payload.password !== 'string') {
    throw new Error(`secure blob ${blobId} does not hold a certificate`);
  }
  return { pfx: Buffer.from(payload.pfx, 'base64'), password: payload.password };
}
