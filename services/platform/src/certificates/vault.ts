import { type SecureBlobs } from '../secrets/blobs';

const PURPOSE = 'certificado-a1';

/** The company's A1 certificate and its password, sealed together; events only ever carry the blob's id. */
export class CertificateVault {
  constructor(private readonly blobs: SecureBlobs) {}

  store(companyId: string, pfx: Buffer, password: string): Promise<string> {
    return this.blobs.put(companyId, PURPOSE, Buffer.from(JSON.stringify({ pfx: pfx.toString('base64'), password })));
  }

  async load(companyId: string, blobId: string): Promise<{ pfx: Buffer; password: string } | null> {
    const raw = await this.blobs.get(blobId, companyId);
    if (!raw) return null;
    const { pfx, password } = JSON.parse(raw.toString('utf8')) as { pfx: string; password: string };
    return { pfx: Buffer.from(pfx, 'base64'), password };
  }

  async discard(companyId: string, blobId: string): Promise<void> {
    await this.blobs.deleteOthers(companyId, PURPOSE, blobId, { only: blobId });
  }

  discardExcept(companyId: string, keepBlobId: string): Promise<void> {
    return this.blobs.deleteOthers(companyId, PURPOSE, keepBlobId);
  }

  discardAll(companyId: string): Promise<void> {
    return this.blobs.deleteAll(companyId, PURPOSE);
  }
}
