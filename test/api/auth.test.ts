import { randomBytes } from 'node:crypto';
import { SecretCipher, TokenService } from '@frete/platform';
import { startTestApp, expectError, request, type TestApp } from '../support/app';
import { freshDatabase } from '../support/db';

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe('authentication and authorization', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const status = (auth?: string) => request(`${app.url}/v1/fiscal/status`, 'GET', undefined, auth ? { authorization: auth } : {});

  describe('static API key', () => {
    it('is accepted in the sandbox, with the environment in the answer', async () => {
      const c = await app.carrier();
      const res = await c.call('GET', '/v1/fiscal/status');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        environment: 'homologacao',
        data: { ambiente: 'homologacao', empresa: { cnpj: c.cnpj }, credencial: { tipo: 'api-key' } },
      });
      expect(c.apiKey).toMatch(/^fk_hml_/);
    });

    it('401 when missing, malformed or unknown', async () => {
      expectError(await status(), 401, 'nao_autenticado');
      expectError(await status('Basic abc'), 401, 'nao_autenticado');
      const res = await status('Bearer fk_hml_' + randomBytes(32).toString('base64url'));
      expectError(res, 401, 'nao_autenticado');
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
    });

    it('401 naming the expected environment for a production key', async () => {
      const body = expectError(await status('Bearer fk_prd_' + randomBytes(32).toString('base64url')), 401, 'nao_autenticado');
      expect(body.error.message).toMatch(/producao/);
      expect(body.error.message).toMatch(/homologacao/);
    });

    it('401 once revoked', async () => {
      const c = await app.carrier();
      await app.running.application.operator.revokeCredential(c.credentialId);
      expectError(await c.call('GET', '/v1/fiscal/status'), 401, 'nao_autenticado');
    });
  });

  describe('scopes and carrier gates', () => {
    it('403 escopo_nao_habilitado for a credential without the scope (a credential starts with none)', async () => {
      const c = await app.carrier({ scopes: [] });
      expectError(await c.call('GET', '/v1/fiscal/status'), 403, 'escopo_nao_habilitado');
      const other = await app.carrier({ scopes: ['operacao', 'consultas'] });
      expectError(await other.call('GET', '/v1/fiscal/configuracao'), 403, 'escopo_nao_habilitado');
    });

    it('403 on the fiscal track for a company that is not a carrier', async () => {
      const c = await app.carrier({ carrier: false });
      const body = expectError(await c.call('GET', '/v1/fiscal/status'), 403, 'transportadora_nao_habilitada');
      expect(body.error.message).toMatch(/carrier/);
    });

    it('403 on the fiscal track for a carrier whose fiscal registration is not finished', async () => {
      const c = await app.carrier({ fiscalReady: false });
      expectError(await c.call('GET', '/v1/fiscal/status'), 403, 'transportadora_nao_habilitada');
    });
  });

  describe('OAuth 2.0 client_credentials', () => {
    const oauthClient = async (scopes = ['fiscal', 'operacao']) => {
      const c = await app.carrier({ scopes: [] });
      const cred = await app.running.application.operator.createCredential({ company: c.cnpj, kind: 'oauth', scopes });
      if (cred.kind !== 'oauth') throw new Error('expected oauth');
      return { ...cred, cnpj: c.cnpj };
    };
    const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      request(`${app.url}/oauth/token`, 'POST', form(fields), headers);

    it('issues a Bearer JWT valid for 3600 s that the API accepts', async () => {
      const client = await oauthClient();
      const res = await token({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'fiscal operacao' });
      expect(res.body.access_token.split('.')).toHaveLength(3);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const ok = await status(`Bearer ${res.body.access_token}`);
      expect(ok.status).toBe(200);
      expect(ok.body.data.credencial).toEqual({ tipo: 'oauth', escopos: ['fiscal', 'operacao'] });
    });

    it('accepts client authentication by HTTP Basic and narrows scopes on request', async () => {
      const client = await oauthClient();
      const basic = 'Basic ' + Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
      const res = await token({ grant_type: 'client_credentials', scope: 'operacao' }, { authorization: basic });
      expect(res.status).toBe(200);
      expect(res.body.scope).toBe('operacao');
      expectError(await status(`Bearer ${res.body.access_token}`), 403, 'escopo_nao_habilitado');
    });

    it('answers RFC 6749 errors', async () => {
      const client = await oauthClient();
      const e = async (fields: Record<string, string>, status: number, error: string, headers?: Record<string, string>) => {
        const res = await token(fields, headers);
        expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
        expect(typeof res.body.error_description).toBe('string');
      };
      await e({ grant_type: 'password', client_id: client.client_id, client_secret: client.client_secret }, 400, 'unsupported_grant_type');
      await e({ client_id: client.client_id }, 400, 'invalid_request');
      await e({ grant_type: 'client_credentials', client_id: client.client_id }, 400, 'invalid_request');
      await e({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'cs_wrong' }, 401, 'invalid_client');
      await e({ grant_type: 'client_credentials', client_id: 'cli_hml_unknown', client_secret: 'x' }, 401, 'invalid_client');
      await e(
        { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, scope: 'cadastros' },
        400,
        'invalid_scope',
      );
      const res = await token(
        { grant_type: 'client_credentials' },
        { authorization: 'Basic ' + Buffer.from(`${client.client_id}:nope`).toString('base64') },
      );
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Basic');
    });

    it('refuses an expired token, a tampered one, and one of a revoked client', async () => {
      const client = await oauthClient();
      const tokens = app.running.platform.tokens;
      const expired = await tokens.issue(
        { credentialId: client.credential_id, companyId: client.company_id, scopes: ['fiscal'] },
        new Date(Date.now() - 3601_000),
      );
      const body = expectError(await status(`Bearer ${expired}`), 401, 'nao_autenticado');
      expect(body.error.message).toMatch(/expired/);
      const good = await tokens.issue({ credentialId: client.credential_id, companyId: client.company_id, scopes: ['fiscal'] }, new Date());
      const [h, p, s] = good.split('.');
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), scope: 'fiscal operacao cadastros' }),
      ).toString('base64url');
      expectError(await status(`Bearer ${h}.${forged}.${s}`), 401, 'nao_autenticado');
      expect((await status(`Bearer ${good}`)).status).toBe(200);
      await app.running.application.operator.revokeCredential(client.credential_id);
      expectError(await status(`Bearer ${good}`), 401, 'nao_autenticado');
    });

    it('401 naming the environment for a production token', async () => {
      // Another deployment: its own database and keys.
      const other = await freshDatabase();
      const prd = new TokenService(other.pool, new SecretCipher(randomBytes(32).toString('base64')), 'producao', 'frete-fiscal');
      const t = await prd.issue({ credentialId: 'x', companyId: 'y', scopes: ['fiscal'] }, new Date());
      await other.drop();
      const body = expectError(await status(`Bearer ${t}`), 401, 'nao_autenticado');
      expect(body.error.message).toMatch(/producao/);
    });

    it('publishes the verification keys as JWKS', async () => {
      const res = await request(`${app.url}/.well-known/jwks.json`, 'GET');
      expect(res.status).toBe(200);
      expect(res.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(res.body.keys[0].d).toBeUndefined();
    });
  });
});

describe('production deployment', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ APP_ENVIRONMENT: 'producao' });
  });
  afterAll(() => app?.close());

  it('issues fk_prd_ keys and refuses sandbox keys naming the environment', async () => {
    const c = await app.carrier({ fiscalProduction: true });
    expect(c.apiKey).toMatch(/^fk_prd_/);
    expect((await c.call('GET', '/v1/fiscal/status')).body.environment).toBe('producao');
    const body = expectError(
      await request(`${app.url}/v1/fiscal/status`, 'GET', undefined, {
        authorization: 'Bearer fk_hml_' + randomBytes(32).toString('base64url'),
      }),
      401,
      'nao_autenticado',
    );
    expect(body.error.message).toMatch(/homologacao/);
  });

  it('answers 403 homologacao_obrigatoria while the production fiscal journey is not released', async () => {
    const c = await app.carrier({ fiscalProduction: false });
    expectError(await c.call('GET', '/v1/fiscal/status'), 403, 'homologacao_obrigatoria');
  });
});
