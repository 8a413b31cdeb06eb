import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 0x01;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + NONCE_BYTES + TAG_BYTES;

export class SecretCipherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretCipherError';
  }
}

/**
 * AES-256-GCM for secrets at rest (certificates and their passwords, signing keys). The key comes from
 * configuration (SECRETS_KEY, base64 of 32 bytes). A sealed value is `version (1) | nonce (12) | tag (16) |
 * ciphertext`; the associated data is not stored but must be given again to open it, so it binds the value to
 * what it belongs to (company, purpose, row): a value copied elsewhere does not open.
 */
export class SecretCipher {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    // Standard or URL-safe alphabet, padding optional; anything else (stray characters Node would skip) is refused.
    const text = keyBase64.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    const key = Buffer.from(text, 'base64');
    if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== text) {
      throw new SecretCipherError('the secrets key must be base64 of exactly 32 bytes');
    }
    this.key = key;
  }

  seal(plaintext: Buffer, aad: string): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), ciphertext]);
  }

  /** Throws SecretCipherError when the value was altered, sealed with another key or with other associated data. */
  open(sealed: Buffer, aad: string): Buffer {
    if (sealed.length < HEADER_BYTES) throw new SecretCipherError('sealed value too short');
    if (sealed[0] !== VERSION) throw new SecretCipherError(`unknown sealed value version ${sealed[0]}`);
    const nonce = sealed.subarray(1, 1 + NONCE_BYTES);
    const tag = sealed.subarray(1 + NONCE_BYTES, HEADER_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]);
    } catch {
      throw new SecretCipherError('sealed value does not open: altered, another key, or another purpose');
    }
  }
}
