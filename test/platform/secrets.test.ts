import { randomBytes, randomUUID } from 'node:crypto';
import { CERTIFICATE_PURPOSE, SecretCipher, SecretCipherError, SecureBlobs, openCertificate, sealCertificate } from '@frete/platform';
import { freshDatabase, type TestDatabase } from '../support/db';

const KEY = randomBytes(32).toString('base64');

describe('SecretCipher', () => {
  const cipher = new SecretCipher(KEY);
  const plaintext = Buffer.from('{"pfx":"MIIK...","password":"senha-do-a1"}');
  const aad = 'secure-blob:company-1:certificado-a1';

  it('refuses keys that are not base64 of 32 bytes', () => {
    expect(() => new SecretCipher(randomBytes(16).toString('base64'))).toThrow(SecretCipherError);
    expect(() => new SecretCipher(randomBytes(33).toString('base64'))).toThrow(SecretCipherError);
    expect(() => new SecretCipher('')).toThrow(SecretCipherError);
    expect(() => new SecretCipher('not base64 at all, but long enough to be 32 bytes if decoded')).toThrow(SecretCipherError);
    expect(() => new SecretCipher(`${KEY.slice(0, 10)}!${KEY.slice(10)}`)).toThrow(SecretCipherError);
    // the URL-safe alphabet and missing padding are fine
    expect(() => new SecretCipher(Buffer.from(KEY, 'base64').toString('base64url'))).not.toThrow();
  });

  it('round-trips, with version, nonce and tag in front of a ciphertext as long as the plaintext', () => {
    const sealed = cipher.seal(plaintext, aad);
    expect(sealed[0]).toBe(1);
    expect(sealed.length).toBe(1 + 12 + 16 + plaintext.length);
    expect(sealed.includes(Buffer.from('senha-do-a1'))).toBe(false);
    expect(cipher.open(sealed, aad)).toEqual(plaintext);
    expect(cipher.open(cipher.seal(Buffer.alloc(0), aad), aad)).toEqual(Buffer.alloc(0));
  });

  it('uses a fresh nonce every time', () => {
    const a = cipher.seal(plaintext, aad);
    const b = cipher.seal(plaintext, aad);
    expect(a.subarray(1, 13).equals(b.subarray(1, 13))).toBe(false);
    expect(a.equals(b)).toBe(false);
  });

  it('detects tampering anywhere: version, nonce, tag or ciphertext', () => {
    const sealed = cipher.seal(plaintext, aad);
    for (const index of [0, 1, 12, 13, 28, 29, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[index] = altered[index]! ^ 0x01;
      expect(() => cipher.open(altered, aad)).toThrow(SecretCipherError);
    }
    expect(() => cipher.open(sealed.subarray(0, sealed.length - 1), aad)).toThrow(SecretCipherError);
    expect(() => cipher.open(sealed.subarray(0, 20), aad)).toThrow(SecretCipherError);
  });

  it('does not open with other associated data (another company or purpose)', () => {
    const sealed = cipher.seal(plaintext, aad);
    expect(() => cipher.open(sealed, 'secure-blob:company-2:certificado-a1')).toThrow(SecretCipherError);
    expect(() => cipher.open(sealed, 'secure-blob:company-1:outra-coisa')).toThrow(SecretCipherError);
    expect(() => cipher.open(sealed, '')).toThrow(SecretCipherError);
  });

  it('does not open with another key', () => {
    const sealed = cipher.seal(plaintext, aad);
    expect(() => new SecretCipher(randomBytes(32).toString('base64')).open(sealed, aad)).toThrow(SecretCipherError);
  });
});

describe('SecureBlobs on PostgreSQL', () => {
  let db: TestDatabase;
  let blobs: SecureBlobs;
  const companyA = `co_${randomUUID()}`;
  const companyB = `co_${randomUUID()}`;

  beforeAll(async () => {
    db = await freshDatabase();
    blobs = new SecureBlobs(db.pool, new SecretCipher(KEY));
  });
  afterAll(async () => {
    await db.drop();
  });

  const idsOf = async (companyId: string, purpose: string): Promise<string[]> =>
    (
      await db.pool.query<{ id: string }>(`SELECT id FROM secure_blobs WHERE company_id = $1 AND purpose = $2 ORDER BY id`, [
        companyId,
        purpose,
      ])
    ).rows.map((r) => r.id);

  it('stores only ciphertext and gives the payload back to its company', async () => {
    const payload = Buffer.from('segredo da empresa A');
    const id = await blobs.put(companyA, 'teste', payload);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await db.pool.query<{ ciphertext: Buffer; company_id: string; purpose: string }>(
      `SELECT ciphertext, company_id, purpose FROM secure_blobs WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toMatchObject({ company_id: companyA, purpose: 'teste' });
    expect(rows[0]!.ciphertext.includes(payload)).toBe(false);
    expect(await blobs.get(id, companyA)).toEqual(payload);
    expect(await blobs.get(id, companyA, 'teste')).toEqual(payload);
  });

  it('answers null to another company, a missing id, a malformed id and another purpose', async () => {
    const id = await blobs.put(companyA, 'teste', Buffer.from('de A'));
    expect(await blobs.get(id, companyB)).toBeNull();
    expect(await blobs.get(randomUUID(), companyA)).toBeNull();
    expect(await blobs.get('not-a-uuid', companyA)).toBeNull();
    expect(await blobs.get(id, companyA, 'outra')).toBeNull();
  });

  it('refuses a ciphertext moved to another company or row (the associated data binds it)', async () => {
    const id = await blobs.put(companyA, 'teste', Buffer.from('de A'));
    await db.pool.query(`UPDATE secure_blobs SET company_id = $2 WHERE id = $1`, [id, companyB]);
    await expect(blobs.get(id, companyB)).rejects.toThrow(SecretCipherError);

    const source = await blobs.put(companyA, 'teste', Buffer.from('original'));
    const target = await blobs.put(companyA, 'teste', Buffer.from('other'));
    await db.pool.query(`UPDATE secure_blobs SET ciphertext = (SELECT ciphertext FROM secure_blobs WHERE id = $1) WHERE id = $2`, [
      source,
      target,
    ]);
    await expect(blobs.get(target, companyA)).rejects.toThrow(SecretCipherError);
  });

  it('deleteOthers keeps one blob of the company and purpose, and touches nothing else', async () => {
    const purpose = 'substituicao';
    const old1 = await blobs.put(companyA, purpose, Buffer.from('old 1'));
    const old2 = await blobs.put(companyA, purpose, Buffer.from('old 2'));
    const keep = await blobs.put(companyA, purpose, Buffer.from('new'));
    const otherPurpose = await blobs.put(companyA, 'outra', Buffer.from('other purpose'));
    const otherCompany = await blobs.put(companyB, purpose, Buffer.from('other company'));

    await blobs.deleteOthers(companyA, purpose, keep);
    expect(await idsOf(companyA, purpose)).toEqual([keep]);
    expect(await blobs.get(old1, companyA)).toBeNull();
    expect(await blobs.get(old2, companyA)).toBeNull();
    expect(await blobs.get(keep, companyA)).toEqual(Buffer.from('new'));
    expect(await blobs.get(otherPurpose, companyA)).toEqual(Buffer.from('other purpose'));
    expect(await blobs.get(otherCompany, companyB)).toEqual(Buffer.from('other company'));

    // another company's id as keepId keeps nothing of this company
    await blobs.deleteOthers(companyA, purpose, otherCompany);
    expect(await idsOf(companyA, purpose)).toEqual([]);
    expect(await idsOf(companyB, purpose)).toEqual([otherCompany]);
  });

  it('delete removes just that blob of the company (a replacement that did not go through)', async () => {
    const purpose = 'falhou';
    const current = await blobs.put(companyA, purpose, Buffer.from('current'));
    const failed = await blobs.put(companyA, purpose, Buffer.from('failed'));
    expect(await blobs.delete(failed, companyA, purpose)).toBe(true);
    expect(await idsOf(companyA, purpose)).toEqual([current]);
    // not across companies
    expect(await blobs.delete(current, companyB, purpose)).toBe(false);
    expect(await idsOf(companyA, purpose)).toEqual([current]);
  });

  it("deleteAll removes the company's blobs of one purpose only", async () => {
    const purpose = 'tudo';
    await blobs.put(companyA, purpose, Buffer.from('1'));
    await blobs.put(companyA, purpose, Buffer.from('2'));
    const kept = await blobs.put(companyA, 'fica', Buffer.from('3'));
    const otherCompany = await blobs.put(companyB, purpose, Buffer.from('4'));
    await blobs.deleteAll(companyA, purpose);
    expect(await idsOf(companyA, purpose)).toEqual([]);
    expect(await blobs.get(kept, companyA)).toEqual(Buffer.from('3'));
    expect(await blobs.get(otherCompany, companyB)).toEqual(Buffer.from('4'));
  });

  it('seals a certificate file with its password as one blob of purpose certificado-a1', async () => {
    const pfx = randomBytes(3000);
    const password = 'sênha do A1 "com aspas"';
    const id = await sealCertificate(blobs, companyA, { pfx, password });
    const { rows } = await db.pool.query<{ purpose: string; ciphertext: Buffer }>(
      `SELECT purpose, ciphertext FROM secure_blobs WHERE id = $1`,
      [id],
    );
    expect(rows[0]!.purpose).toBe(CERTIFICATE_PURPOSE);
    expect(rows[0]!.ciphertext.includes(Buffer.from('com aspas'))).toBe(false);
    expect(rows[0]!.ciphertext.includes(pfx.subarray(0, 64))).toBe(false);

    const opened = await openCertificate(blobs, id, companyA);
    expect(opened).not.toBeNull();
    expect(opened!.pfx.equals(pfx)).toBe(true);
    expect(opened!.password).toBe(password);
    expect(await openCertificate(blobs, id, companyB)).toBeNull();
    expect(await openCertificate(blobs, randomUUID(), companyA)).toBeNull();
    // a blob of another purpose is not a certificate
    const other = await blobs.put(companyA, 'outra', Buffer.from('{}'));
    expect(await openCertificate(blobs, other, companyA)).toBeNull();
  });
});
