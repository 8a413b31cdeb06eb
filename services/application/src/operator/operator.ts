import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type CompanyRow, allCompanies, companyOf } from '@frete/projections';
import { type CredentialKind, type Environment, type Position, type Scope, SCOPES } from '@frete/contracts';
import {
  type CompanyFlags,
  type CompanyState,
  companyDecider,
  credentialDecider,
  isValidCnpj,
  normalizeCnpj,
  Rejection,
} from '@frete/domain';
import { type CommandContext, execute, load } from '../commands/execute';
import { type EventStore } from '@frete/platform';
import { type ProjectionRunner } from '@frete/platform';
import { derivedEventId } from '@frete/platform';
import { newApiKey, newOAuthClient } from '@frete/platform';

/** One company per CNPJ: the id is derived from it, so creating the stream with no_stream enforces uniqueness. */
export const companyIdFor = (cnpj: string) => derivedEventId(normalizeCnpj(cnpj), 'company');
export const companyStream = (companyId: string) => `company-${companyId}`;
export const credentialStream = (credentialId: string) => `credential-${credentialId}`;

export type IssuedCredential =
  | { credential_id: string; company_id: string; kind: 'api-key'; environment: Environment; scopes: Scope[]; api_key: string }
  | {
      credential_id: string;
      company_id: string;
      kind: 'oauth';
      environment: Environment;
      scopes: Scope[];
      client_id: string;
      client_secret: string;
    };

/**
 * What the company panel would do, for the operator tool (ruling 4) and the embedded demo. After each write the
 * read models are brought up to date here, so that a credential works the moment it is printed.
 */
export class Operator {
  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    private readonly projections: ProjectionRunner,
    private readonly environment: Environment,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private ctx(companyId: string | null): CommandContext {
    const id = randomUUID();
    return { companyId, correlationId: id, causationId: null, requestId: null, actor: 'operator', now: this.clock() };
  }

  async createCompany(input: { cnpj: string; razao_social: string } & CompanyFlags): Promise<CompanyRow> {
    if (!isValidCnpj(input.cnpj)) throw new Rejection('validacao', `invalid CNPJ '${input.cnpj}'`);
    const companyId = companyIdFor(input.cnpj);
    const { position } = await execute(
      { store: this.store },
      companyStream(companyId),
      companyDecider,
      {
        type: 'RegisterCompany',
        company_id: companyId,
        cnpj: input.cnpj,
        razao_social: input.razao_social,
        flags: { carrier: input.carrier, fiscal_ready: input.fiscal_ready, fiscal_production: input.fiscal_production },
      },
      this.ctx(companyId),
    );
    await this.settle(position);
    return (await this.findCompany(companyId))!;
  }

  async changeFlags(companyRef: string, flags: Partial<CompanyFlags>): Promise<CompanyRow> {
    const company = await this.requireCompany(companyRef);
    const { position } = await execute(
      { store: this.store },
      companyStream(company.company_id),
      companyDecider,
      {
        type: 'ChangeCompanyFlags',
        company_id: company.company_id,
        flags,
      },
      this.ctx(company.company_id),
    );
    await this.settle(position);
    return (await this.findCompany(company.company_id))!;
  }

  /** The read models (credentials above all) must show a write before the operator reports it done. */
  private async settle(position: Position | null): Promise<void> {
    if (position) await this.projections.catchUpTo(position);
  }

  /** A company by id or CNPJ (with or without punctuation). */
  async findCompany(ref: string): Promise<CompanyRow | null> {
    return companyOf(this.pool, ref, normalizeCnpj(ref));
  }

  private async requireCompany(ref: string): Promise<CompanyRow> {
    const c = await this.findCompany(ref);
    if (!c) throw new Rejection('nao_encontrado', `company '${ref}' not found`);
    return c;
  }

  async listCompanies(): Promise<CompanyRow[]> {
    return allCompanies(this.pool);
  }

  async createCredential(input: { company: string; kind: CredentialKind; scopes: string[] }): Promise<IssuedCredential> {
    const company = await this.requireCompany(input.company);
    const unknown = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new Rejection('validacao', `unknown scopes: ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
    const scopes = input.scopes as Scope[];
    const credentialId = randomUUID();
    const state: CompanyState = await load(this.store, companyStream(company.company_id), companyDecider);
    const secret = input.kind === 'api-key' ? newApiKey(this.environment) : newOAuthClient(this.environment);
    const { events, position } = await execute(
      { store: this.store },
      credentialStream(credentialId),
      credentialDecider,
      {
        type: 'IssueCredential',
        credential_id: credentialId,
        company: state,
        kind: input.kind,
        environment: this.environment,
        scopes,
        secret_sha256: secret.sha256,
        client_id: 'clientId' in secret ? secret.clientId : null,
        hint: secret.hint,
      },
      this.ctx(company.company_id),
    );
    await this.settle(position);
    const issued = events[0]!.data as { scopes: Scope[] };
    return 'clientId' in secret
      ? {
          credential_id: credentialId,
          company_id: company.company_id,
          kind: 'oauth',
          environment: this.environment,
          scopes: issued.scopes,
          client_id: secret.clientId,
          client_secret: secret.clientSecret,
        }
      : {
          credential_id: credentialId,
          company_id: company.company_id,
          kind: 'api-key',
          environment: this.environment,
          scopes: issued.scopes,
          api_key: secret.key,
        };
  }

  async listCredentials(companyRef?: string) {
    const company = companyRef ? await this.requireCompany(companyRef) : null;
    const { rows } = await this.pool.query(
      `SELECT c.credential_id, c.company_id, co.cnpj, c.kind, c.environment, c.scopes, c.client_id, c.hint, c.status, c.issued_at, c.revoked_at
         FROM rm.credentials c JOIN rm.companies co USING (company_id)
        WHERE $1::text IS NULL OR c.company_id = $1 ORDER BY c.issued_at`,
      [company?.company_id ?? null],
    );
    return rows;
  }

  async revokeCredential(credentialId: string): Promise<{ credential_id: string; revoked: boolean }> {
    const current = await load(this.store, credentialStream(credentialId), credentialDecider);
    const companyId = current.status === 'none' ? null : current.company_id;
    const { events, position } = await execute(
      { store: this.store },
      credentialStream(credentialId),
      credentialDecider,
      { type: 'RevokeCredential' },
      this.ctx(companyId),
    );
    await this.settle(position);
    return { credential_id: credentialId, revoked: events.length > 0 };
  }
}
