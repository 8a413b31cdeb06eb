import { randomUUID } from 'node:crypto';
import { CertificateVault, type SecureBlobs } from '@frete/platform';
import { makeA1 } from '../support/certificates';

/** Sealed blobs in memory, counting reads: the vault's cache and its opens in the worker are what is tested. */
class MemoryBlobs {
  readonly blobs = new Map<string, { companyId: string; payload: Buffer }>();
  reads = 0;
  async put(companyId: string, _purpose: string, payload: Buffer): Promise<string> {
    const id = randomUUID();
    this.blobs.set(id, { companyId, payload });
    return id;
  }
  async get(id: string, companyId: string): Promise<Buffer | null> {
    this.reads++;
    const blob = this.blobs.get(id);
    return blob && blob.companyId === companyId ? blob.payload : null;
  }
  async delete(id: string): Promise<boolean> {
    return this.blobs.delete(id);
  }
}

describe('CertificateVault: signing keys opened in the worker', () => {
  const company = randomUUID();
  const a1 = makeA1({ cnpj: '11222333000181', razao: 'TRANSPORTES VAULT LTDA', password: 'senha', cnpjIn: 'otherName' });

  it('opens a blob once for the documents that ask for it at the same time, then serves it from the cache', async () => {
    const blobs = new MemoryBlobs();
    const vault = new CertificateVault(blobs as unknown as SecureBlobs);
    const blobId = await vault.store(company, a1.pfx, 'senha');
    const keys = await Promise.all([1, 2, 3].map(() => vault.signingKey(company, blobId)));
    expect(keys.map((k) => k?.certificatePem)).toEqual([a1.certificatePem, a1.certificatePem, a1.certificatePem]);
    expect(await vault.signingKey(company, blobId)).toBe(keys[0]);
    expect(blobs.reads).toBe(1);
  });

  it('does not cache a key whose blob was discarded while it was being opened', async () => {
    const blobs = new MemoryBlobs();
    const vault = new CertificateVault(blobs as unknown as SecureBlobs);
    const blobId = await vault.store(company, a1.pfx, 'senha');
    const opening = vault.signingKey(company, blobId);
    await vault.discard(company, blobId);
    expect((await opening)?.certificatePem).toBe(a1.certificatePem);
    expect(await vault.signingKey(company, blobId)).toBeNull();
  });
});
