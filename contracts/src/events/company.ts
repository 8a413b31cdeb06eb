import { Type, type Static } from '@sinclair/typebox';
import { Environment, Scope } from '../http/common';

export const CompanyRegistered = Type.Object({
  company_id: Type.String(),
  cnpj: Type.String(),
  razao_social: Type.String(),
  carrier: Type.Boolean(),
  fiscal_ready: Type.Boolean(),
  fiscal_production: Type.Boolean(),
});
export type CompanyRegistered = Static<typeof CompanyRegistered>;

export const CompanyFlagsChanged = Type.Object({
  company_id: Type.String(),
  carrier: Type.Optional(Type.Boolean()),
  fiscal_ready: Type.Optional(Type.Boolean()),
  fiscal_production: Type.Optional(Type.Boolean()),
});
export type CompanyFlagsChanged = Static<typeof CompanyFlagsChanged>;

export const CredentialKind = Type.Union([Type.Literal('api-key'), Type.Literal('oauth')]);
export type CredentialKind = Static<typeof CredentialKind>;

/** The secret itself never enters an event: only its SHA-256 (the secrets are 256-bit random). */
export const CredentialIssued = Type.Object({
  credential_id: Type.String(),
  company_id: Type.String(),
  kind: CredentialKind,
  environment: Environment,
  scopes: Type.Array(Scope),
  secret_sha256: Type.String(),
  client_id: Type.Union([Type.String(), Type.Null()]),
  hint: Type.String({ description: 'First characters of the key, for people to tell keys apart' }),
});
export type CredentialIssued = Static<typeof CredentialIssued>;

export const CredentialRevoked = Type.Object({ credential_id: Type.String(), company_id: Type.String() });
export type CredentialRevoked = Static<typeof CredentialRevoked>;
