import { Type, type Static } from '@sinclair/typebox';
import { InteiroEnum } from './common';

export const TokenRequest = Type.Object(
  {
    grant_type: Type.String(),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
  },
  { $id: 'TokenRequest' },
);
export type TokenRequest = Static<typeof TokenRequest>;

export const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'A JWT (three dot-separated segments)' }),
    token_type: Type.Literal('Bearer'),
    expires_in: InteiroEnum([3600], { description: 'Seconds the token is valid: 3600' }),
    scope: Type.String(),
  },
  { $id: 'TokenResponse' },
);
export type TokenResponse = Static<typeof TokenResponse>;

/** RFC 6749 §5.2: OAuth clients read these, not our envelope. */
export const OAuthError = Type.Object(
  {
    error: Type.Union(
      ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'].map((c) =>
        Type.Literal(c),
      ),
    ),
    error_description: Type.String(),
  },
  { $id: 'OAuthError' },
);
export type OAuthError = Static<typeof OAuthError>;
