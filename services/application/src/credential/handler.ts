import { randomUUID } from 'node:crypto';
import { type CredentialKind, type Environment, type Position, type Scope, SCOPES } from '@frete/contracts';
import { type CompanyState, companyDecider, credentialDecider, Rejection } from '@frete/domain';
import { newApiKey, newOAuthClient } from '@frete/platform';
import { type CommandDeps, type ContextoEmpresa, execute, load } from '../commands/execute';

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

export interface CredentialHandlerDeps extends CommandDeps {
  /** A deployment serves one environment: its credentials are issued for it alone. */
  environment: Environment;
}

/** What a write recorded, and where in the log (the operator tool brings the read models up to it before answering). */
export interface Registrado<T> {
  resultado: T;
  position: Position | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const naoEncontrada = (id: string) => new Rejection('nao_encontrado', `credential ${id.slice(0, 64)} not found`);

/** Only the scopes the contracts know; the message names the strangers. */
export function escoposValidos(scopes: readonly string[]): Scope[] {
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Rejection('validacao', `unknown scopes: ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
  return scopes as Scope[];
}

/**
 * The company's API credentials (static keys and OAuth clients): issued by the company panel's admin or the operator
 * tool, with the actor of whoever asked. The secret leaves here once and is kept only as its hash.
 */
export const credentialHandler = (deps: CredentialHandlerDeps) => ({
  /** A new credential for the deployment's environment; its secret is in the answer and nowhere else. */
  emitir: async (
    ctx: ContextoEmpresa,
    input: { kind: CredentialKind; scopes: readonly string[] },
  ): Promise<Registrado<IssuedCredential>> => {
    const scopes = escoposValidos(input.scopes);
    const company: CompanyState = await load(deps.store, companyStream(ctx.companyId), companyDecider);
    const credentialId = randomUUID();
    const secret = input.kind === 'oauth' ? newOAuthClient(deps.environment) : newApiKey(deps.environment);
    const { events, position } = await execute(
      deps,
      credentialStream(credentialId),
      credentialDecider,
      {
        type: 'IssueCredential',
        credential_id: credentialId,
        company,
        kind: input.kind,
        environment: deps.environment,
        scopes,
        secret_sha256: secret.sha256,
        client_id: 'clientId' in secret ? secret.clientId : null,
        hint: secret.hint,
      },
      ctx,
    );
    const issued = events[0]!.data as { scopes: Scope[] };
    const comum = { credential_id: credentialId, company_id: ctx.companyId, environment: deps.environment, scopes: issued.scopes };
    const resultado: IssuedCredential =
      'clientId' in secret
        ? { ...comum, kind: 'oauth', client_id: secret.clientId, client_secret: secret.clientSecret }
        : { ...comum, kind: 'api-key', api_key: secret.key };
    return { resultado, position };
  },

  /** Ends a credential of the company at once (its tokens too); another company's is not found. Revoking twice is no change. */
  revogar: async (ctx: ContextoEmpresa, credentialId: string): Promise<Registrado<{ credential_id: string; revoked: boolean }>> => {
    if (!UUID.test(credentialId)) throw naoEncontrada(credentialId);
    const stream = credentialStream(credentialId);
    const current = await load(deps.store, stream, credentialDecider);
    if (current.status === 'none' || current.company_id !== ctx.companyId) throw naoEncontrada(credentialId);
    const { events, position } = await execute(deps, stream, credentialDecider, { type: 'RevokeCredential' }, ctx);
    return { resultado: { credential_id: credentialId, revoked: events.length > 0 }, position };
  },

  /** Whose a credential is, for the operator tool (which acts on any company's); null when it does not exist. */
  empresaDe: async (credentialId: string): Promise<string | null> => {
    if (!UUID.test(credentialId)) return null;
    const current = await load(deps.store, credentialStream(credentialId), credentialDecider);
    return current.status === 'none' ? null : current.company_id;
  },
});
export type CredentialHandler = ReturnType<typeof credentialHandler>;
