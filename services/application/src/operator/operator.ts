import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type CompanyRow, allCompanies, companyOf } from '@frete/projections';
import { type CredentialKind, type Environment, type Position } from '@frete/contracts';
import { type CompanyFlags, companyDecider, isValidCnpj, normalizeCnpj, Rejection } from '@frete/domain';
import { type CommandContext, type ContextoEmpresa, execute } from '../commands/execute';
import { type EventStore } from '@frete/platform';
import { type ProjectionRunner } from '@frete/platform';
import { derivedEventId } from '@frete/platform';
import { companyStream, type CredentialHandler, credentialHandler, type IssuedCredential } from '../credential/handler';

/** One company per CNPJ: the id is derived from it, so creating the stream with no_stream enforces uniqueness. */
export const companyIdFor = (cnpj: string) => derivedEventId(normalizeCnpj(cnpj), 'company');

/**
 * The operator tool's acts (ruling 4) and the embedded demo's: companies, and credentials through the same handler the
 * company panel uses (signed `operator` here). After each write the read models are brought up to date here, so that a
 * credential works the moment it is printed.
 */
export class Operator {
  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    private readonly projections: ProjectionRunner,
    private readonly environment: Environment,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.credentials = credentialHandler({ store, environment });
  }

  /** The same handler the company panel issues and revokes with; here the actor is the operator. */
  private readonly credentials: CredentialHandler;

  private ctx(companyId: string | null): CommandContext {
    const id = randomUUID();
    return { companyId, correlationId: id, causationId: null, requestId: null, actor: 'operator', now: this.clock() };
  }

  private companyCtx(companyId: string): ContextoEmpresa {
    return { ...this.ctx(companyId), companyId };
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
    const { resultado, position } = await this.credentials.emitir(this.companyCtx(company.company_id), input);
    await this.settle(position);
    return resultado;
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
    const companyId = await this.credentials.empresaDe(credentialId);
    if (!companyId) throw new Rejection('nao_encontrado', 'credential not found');
    const { resultado, position } = await this.credentials.revogar(this.companyCtx(companyId), credentialId);
    await this.settle(position);
    return resultado;
  }
}
