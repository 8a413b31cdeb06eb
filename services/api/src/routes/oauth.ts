import { Type } from '@sinclair/typebox';
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OAuthError, TokenRequest, TokenResponse, type Scope, SCOPES } from '@frete/contracts';
import { TOKEN_TTL_SECONDS } from '@frete/platform';
import { type ApiDeps } from '../deps';
import { limiteRequisicoes } from '../schemas';

type OAuthErrorCode = OAuthError['error'];

/** RFC 6749 errors (§5.2), so that standard OAuth clients understand them. */
const oauthError = (error: OAuthErrorCode, description: string) => ({ error, error_description: description });

const basicCredentials = (header: string | undefined): { id: string; secret: string } | null => {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  // RFC 6749 §2.3.1: the id and secret are form-urlencoded before Basic encoding.
  return { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
};

export const oauthRoutes =
  (deps: ApiDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/oauth/token',
      {
        config: { public: true },
        // Token errors follow RFC 6749, not the API envelope: answer them here, not through the validator.
        attachValidation: true,
        schema: {
          operationId: 'obterTokenAcesso',
          tags: ['OAuth'],
          summary: 'OAuth 2.0 client_credentials (outside /v1); the access token is a JWT valid for 3600 s, no refresh',
          security: [],
          consumes: ['application/x-www-form-urlencoded'],
          body: Type.Ref(TokenRequest),
          response: {
            200: Type.Ref(TokenResponse),
            400: Type.Ref(OAuthError),
            401: Type.Ref(OAuthError),
            ...limiteRequisicoes(),
          },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
        const body = (request.body ?? {}) as Partial<TokenRequest>;
        if (request.validationError || typeof body.grant_type !== 'string') {
          return reply.status(400).send(oauthError('invalid_request', 'grant_type is required (form-encoded body)'));
        }
        if (body.grant_type !== 'client_credentials') {
          return reply.status(400).send(oauthError('unsupported_grant_type', 'only client_credentials is supported'));
        }
        const basic = basicCredentials(request.headers.authorization);
        const clientId = basic?.id ?? body.client_id;
        const clientSecret = basic?.secret ?? body.client_secret;
        if (basic && (body.client_id || body.client_secret)) {
          return reply
            .status(400)
            .send(oauthError('invalid_request', 'send client credentials either in Authorization: Basic or in the body, not both'));
        }
        if (!clientId || !clientSecret) {
          return reply.status(400).send(oauthError('invalid_request', 'client_id and client_secret are required'));
        }
        const client = await deps.authenticator.oauthClient(clientId, clientSecret);
        if (!client) {
          if (basic) reply.header('WWW-Authenticate', 'Basic realm="frete-fiscal"');
          return reply
            .status(401)
            .send(oauthError('invalid_client', 'unknown client, wrong secret, revoked, or a client of the other environment'));
        }
        let scopes: Scope[] = client.scopes;
        if (body.scope !== undefined) {
          const asked = body.scope.split(' ').filter(Boolean);
          const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s) || !client.scopes.includes(s as Scope));
          if (unknown.length > 0)
            return reply.status(400).send(oauthError('invalid_scope', `scope not enabled for this client: ${unknown.join(' ')}`));
          scopes = asked as Scope[];
        }
        const token = await deps.tokens.issue({ credentialId: client.credentialId, companyId: client.companyId, scopes }, deps.clock());
        return { access_token: token, token_type: 'Bearer' as const, expires_in: TOKEN_TTL_SECONDS as 3600, scope: scopes.join(' ') };
      },
    );

    app.get(
      '/.well-known/jwks.json',
      {
        config: { public: true },
        schema: {
          operationId: 'listarChavesPublicas',
          tags: ['OAuth'],
          summary: 'Public keys that verify the access tokens',
          security: [],
          response: { 200: Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) }), ...limiteRequisicoes() },
        },
      },
      async () => deps.tokens.jwks(),
    );
  };
