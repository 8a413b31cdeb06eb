import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, decodeJwt, type JWK, type KeyLike, errors as joseErrors } from 'jose';
import { type Environment, type Scope } from '@frete/contracts';

/** What seals the private keys at rest (SecretCipher). */
export interface Sealer {
  seal(plaintext: Buffer, aad: string): Buffer;
  open(sealed: Buffer, aad: string): Buffer;
}

export const TOKEN_TTL_SECONDS = 3600;
const ALG = 'ES256';
const AUDIENCE = 'frete-fiscal-api';

export interface AccessTokenClaims {
  credentialId: string;
  companyId: string;
  scopes: Scope[];
  environment: Environment;
}

export class TokenError extends Error {
  constructor(
    readonly reason: 'invalid' | 'expired' | 'other_environment',
    message: string,
    readonly environment?: Environment,
  ) {
    super(message);
  }
}

interface KeyRow {
  kid: string;
  public_jwk: JWK;
  private_enc: Buffer;
}

/**
 * OAuth access tokens: JWTs signed with ES256. Keys live in PostgreSQL (the private half sealed), so every API
 * copy signs and verifies with the same set; the public halves are published as JWKS.
 */
export class TokenService {
  private signing: { kid: string; key: KeyLike | Uint8Array } | null = null;
  private verifying = new Map<string, KeyLike | Uint8Array>();

  constructor(
    private readonly pool: Pool,
    private readonly sealer: Sealer,
    private readonly environment: Environment,
    private readonly issuer: string,
  ) {}

  /** Makes sure a signing key exists; several copies starting at once may each add one, which is harmless. */
  async ensureKey(): Promise<void> {
    const { rows } = await this.pool.query<KeyRow>(
      `SELECT kid, public_jwk, private_enc FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    );
    if (rows[0]) {
      this.signing = { kid: rows[0].kid, key: await this.importPrivate(rows[0]) };
      return;
    }
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    const privateJwk = await exportJWK(privateKey);
    await this.pool.query(`INSERT INTO signing_keys (kid, alg, public_jwk, private_enc) VALUES ($1, $2, $3, $4)`, [
      kid,
      ALG,
      JSON.stringify(publicJwk),
      this.sealer.seal(Buffer.from(JSON.stringify(privateJwk)), `signing-key:${kid}`),
    ]);
    this.signing = { kid, key: privateKey };
  }

  private async importPrivate(row: KeyRow) {
    const jwk = JSON.parse(this.sealer.open(row.private_enc, `signing-key:${row.kid}`).toString('utf8')) as JWK;
    return importJWK(jwk, ALG);
  }

  async issue(claims: Omit<AccessTokenClaims, 'environment'>, now: Date): Promise<string> {
    if (!this.signing) await this.ensureKey();
    const { kid, key } = this.signing!;
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ company_id: claims.companyId, scope: claims.scopes.join(' '), env: this.environment })
      .setProtectedHeader({ alg: ALG, kid, typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setSubject(claims.credentialId)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + TOKEN_TTL_SECONDS)
      .sign(key);
  }

  async verify(token: string): Promise<AccessTokenClaims> {
    let unverified: ReturnType<typeof decodeJwt>;
    try {
      unverified = decodeJwt(token);
    } catch {
      throw new TokenError('invalid', 'malformed access token');
    }
    // A token of the other environment cannot verify here (other keys): say which environment it belongs to.
    if (unverified.env !== this.environment && (unverified.env === 'homologacao' || unverified.env === 'producao')) {
      throw new TokenError('other_environment', `this token is for ${String(unverified.env)}`, unverified.env);
    }
    try {
      const { payload } = await jwtVerify(token, async (header) => this.publicKey(header.kid), {
        issuer: this.issuer,
        audience: AUDIENCE,
        algorithms: [ALG],
      });
      if (typeof payload.sub !== 'string' || typeof payload.company_id !== 'string' || typeof payload.scope !== 'string') {
        throw new TokenError('invalid', 'access token lacks claims');
      }
      return {
        credentialId: payload.sub,
        companyId: payload.company_id,
        scopes: payload.scope.split(' ').filter(Boolean) as Scope[],
        environment: this.environment,
      };
    } catch (err) {
      if (err instanceof TokenError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new TokenError('expired', 'access token expired; request a new one');
      throw new TokenError('invalid', 'invalid access token');
    }
  }

  private async publicKey(kid: string | undefined): Promise<KeyLike | Uint8Array> {
    if (!kid) throw new TokenError('invalid', 'access token without kid');
    const cached = this.verifying.get(kid);
    if (cached) return cached;
    const { rows } = await this.pool.query<{ public_jwk: JWK }>(`SELECT public_jwk FROM signing_keys WHERE kid = $1`, [kid]);
    if (!rows[0]) throw new TokenError('invalid', 'unknown signing key');
    const key = await importJWK(rows[0].public_jwk, ALG);
    this.verifying.set(kid, key);
    return key;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    const { rows } = await this.pool.query<{ public_jwk: JWK }>(
      `SELECT public_jwk FROM signing_keys WHERE retired_at IS NULL OR retired_at > now() - interval '2 hours' ORDER BY created_at`,
    );
    return { keys: rows.map((r) => r.public_jwk) };
  }
}
