import { timingSafeEqual } from 'node:crypto';
import { type Pool } from 'pg';
import { type CompanyRow } from '@frete/projections';
import { type CredentialKind, type Environment, type Scope } from '@frete/contracts';
import { environmentOfPrefix, sha256Hex } from './secrets';
import { TokenError, type TokenService } from './tokens';
import { ReadModelCache } from '../projections/read-model-cache';

export interface Principal {
  credentialId: string;
  kind: CredentialKind;
  scopes: Scope[];
  companyId: string;
  company: { cnpj: string; razao_social: string; carrier: boolean; fiscal_ready: boolean; fiscal_production: boolean };
}

export class AuthError extends Error {}

/** A credential with its company, as authentication reads it. */
export interface CredentialRow extends CompanyRow {
  credential_id: string;
  kind: CredentialKind;
  environment: Environment;
  scopes: Scope[];
  status: string;
}

const SELECT = `SELECT c.credential_id, c.kind, c.environment, c.scopes, c.status, c.company_id,
                       co.cnpj, co.razao_social, co.carrier, co.fiscal_ready, co.fiscal_production
                  FROM rm.credentials c JOIN rm.companies co ON co.company_id = c.company_id`;

const otherEnvironment = (expected: Environment, got: Environment) =>
  new AuthError(
    `credential of the ${got} environment; this is the ${expected} environment (${expected === 'homologacao' ? 'sandbox' : 'production'}): use a ${expected} credential`,
  );

/** Tells a static key from a JWT by its shape (three dot-separated segments) and finds who is calling. */
export class Authenticator {
  constructor(
    private readonly pool: Pool,
    private readonly tokens: TokenService,
    private readonly environment: Environment,
    /** Rows of credentials used lately; only this class puts them there (by key hash and by credential id). */
    // A principal is made of `rm.credentials` and `rm.companies`.
    readonly credentials = new ReadModelCache<CredentialRow>({ aggregates: ['credential', 'company'] }),
  ) {}

  private async credentialWhere(cacheKey: string, where: string, value: string): Promise<CredentialRow | null> {
    return this.credentials.get(
      cacheKey,
      async () => (await this.pool.query<CredentialRow>(`${SELECT} WHERE ${where}`, [value])).rows[0] ?? null,
    );
  }

  async authenticate(authorization: string | undefined): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw new AuthError('missing credential: send Authorization: Bearer <credential>');
    const credential = match[1]!;
    if (credential.split('.').length === 3) return this.fromToken(credential);
    return this.fromApiKey(credential);
  }

  private async fromApiKey(key: string): Promise<Principal> {
    const keyEnv = environmentOfPrefix(key);
    if (keyEnv && keyEnv !== this.environment) throw otherEnvironment(this.environment, keyEnv);
    const hash = sha256Hex(key);
    const row = await this.credentialWhere(`key:${hash}`, `c.secret_sha256 = $1 AND c.kind = 'api-key'`, hash);
    if (!row || row.status !== 'active') throw new AuthError('invalid or revoked credential');
    if (row.environment !== this.environment) throw otherEnvironment(this.environment, row.environment);
    return toPrincipal(row, row.scopes);
  }

  private async fromToken(token: string): Promise<Principal> {
    let claims;
    try {
      claims = await this.tokens.verify(token);
    } catch (err) {
      if (err instanceof TokenError && err.reason === 'other_environment' && err.environment) {
        throw otherEnvironment(this.environment, err.environment);
      }
      throw new AuthError(err instanceof TokenError ? err.message : 'invalid access token');
    }
    const row = await this.credentialWhere(`id:${claims.credentialId}`, `c.credential_id = $1`, claims.credentialId);
    // Revoking the client ends its tokens at once, not an hour later.
    if (!row || row.status !== 'active' || row.company_id !== claims.companyId) throw new AuthError('invalid or revoked credential');
    return toPrincipal(
      row,
      claims.scopes.filter((s) => row.scopes.includes(s)),
    );
  }

  /** OAuth client authentication at the token endpoint. */
  async oauthClient(clientId: string, clientSecret: string): Promise<{ credentialId: string; companyId: string; scopes: Scope[] } | null> {
    const { rows } = await this.pool.query<CredentialRow & { secret_sha256: string }>(
      `${SELECT.replace('SELECT ', 'SELECT c.secret_sha256, ')} WHERE c.client_id = $1 AND c.kind = 'oauth'`,
      [clientId],
    );
    const row = rows[0];
    if (!row || row.status !== 'active' || row.environment !== this.environment) return null;
    if (!timingSafeEqual(Buffer.from(row.secret_sha256), Buffer.from(sha256Hex(clientSecret)))) return null;
    return { credentialId: row.credential_id, companyId: row.company_id, scopes: row.scopes };
  }
}

const toPrincipal = (row: CredentialRow, scopes: Scope[]): Principal => ({
  credentialId: row.credential_id,
  kind: row.kind,
  scopes,
  companyId: row.company_id,
  company: {
    cnpj: row.cnpj,
    razao_social: row.razao_social,
    carrier: row.carrier,
    fiscal_ready: row.fiscal_ready,
    fiscal_production: row.fiscal_production,
  },
});
