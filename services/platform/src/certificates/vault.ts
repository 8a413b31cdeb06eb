import { type SecureBlobs } from '../secrets/blobs';
import { CERTIFICATE_PURPOSE, openCertificate, sealCertificate, type SealedCertificate } from './store';

/** The company's A1 certificate and its password, sealed together; events only ever carry the blob's id. */
export class CertificateVault {
  constructor(private readonly blobs: SecureBlobs) {}

  store(companyId: string, pfx: Buffer, password: string): Promise<string> {
    return sealCertificate(this.blobs, companyId, { pfx, password });
  }

  load(companyId: string, blobId: string): Promise<SealedCertificate | null> {
    return openCertificate(this.blobs, blobId, companyId);
  }

  async discard(companyId: string, blobId: string): Promise<void> {
    await this.blobs.delete(blobId, companyId, CERTIFICATE_PURPOSE);
  }

  discardExcept(companyId: string, keepBlobId: string): Promise<void> {
    return this.blobs.deleteOthers(companyId, CERTIFICATE_PURPOSE, keepBlobId);
  }

  discardAll(companyId: string): Promise<void> {
    return this.blobs.deleteAll(companyId, CERTIFICATE_PURPOSE);
  }
}
