import { type SecureBlobs } from '../secrets/blobs';
import { CERTIFICATE_PURPOSE, openCertificate, sealCertificate, type SealedCertificate } from './store';
import { type Pkcs12Contents } from './pkcs12';
import { openPkcs12 } from './open-pkcs12';

const OPENED_MAX = 256;
const OPENED_TTL_MS = 15 * 60_000;

/** The company's A1 certificate and its password, sealed together; events only ever carry the blob's id. */
export class CertificateVault {
  /**
   * Opened certificates by blob id. Unsealing and parsing a PKCS#12 costs tens of milliseconds of CPU, paid on every
   * signed document of a batch otherwise; the key stays in this process's memory only, for a bounded time, and a
   * removed or replaced certificate leaves the cache at once (a new upload is a new blob id anyway).
   */
  private readonly opened = new Map<string, { companyId: string; contents: Pkcs12Contents; until: number }>();
  /** Opens under way by blob id: the documents of a batch signed at once wait for one open. */
  private readonly opening = new Map<string, Promise<Pkcs12Contents | null>>();
  /** Counts discards: an open that a discard overtook keeps its key out of the cache. */
  private discards = 0;

  constructor(private readonly blobs: SecureBlobs) {}

  /** The certificate and private key to sign with, or null when the sealed blob is gone or unreadable. */
  async signingKey(companyId: string, blobId: string): Promise<Pkcs12Contents | null> {
    const hit = this.opened.get(blobId);
    if (hit && hit.companyId === companyId && hit.until > Date.now()) return hit.contents;
    const key = `${companyId}:${blobId}`;
    let pending = this.opening.get(key);
    if (!pending) {
      pending = this.open(companyId, blobId).finally(() => this.opening.delete(key));
      this.opening.set(key, pending);
    }
    return pending;
  }

  private async open(companyId: string, blobId: string): Promise<Pkcs12Contents | null> {
    const discards = this.discards;
    const sealed = await this.load(companyId, blobId);
    if (!sealed) return null;
    const contents = await openPkcs12(sealed.pfx, sealed.password);
    if (discards !== this.discards) return contents;
    this.opened.delete(blobId);
    this.opened.set(blobId, { companyId, contents, until: Date.now() + OPENED_TTL_MS });
    if (this.opened.size > OPENED_MAX) this.opened.delete(this.opened.keys().next().value!);
    return contents;
  }

  private forget(companyId: string, keep?: string): void {
    this.discards++;
    for (const [blobId, o] of this.opened) if (o.companyId === companyId && blobId !== keep) this.opened.delete(blobId);
  }

  store(companyId: string, pfx: Buffer, password: string): Promise<string> {
    return sealCertificate(this.blobs, companyId, { pfx, password });
  }

  load(companyId: string, blobId: string): Promise<SealedCertificate | null> {
    return openCertificate(this.blobs, blobId, companyId);
  }

  async discard(companyId: string, blobId: string): Promise<void> {
    this.discards++;
    this.opened.delete(blobId);
    await this.blobs.delete(blobId, companyId, CERTIFICATE_PURPOSE);
  }

  discardExcept(companyId: string, keepBlobId: string): Promise<void> {
    this.forget(companyId, keepBlobId);
    return this.blobs.deleteOthers(companyId, CERTIFICATE_PURPOSE, keepBlobId);
  }

  discardAll(companyId: string): Promise<void> {
    this.forget(companyId);
    return this.blobs.deleteAll(companyId, CERTIFICATE_PURPOSE);
  }
}
