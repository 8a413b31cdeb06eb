import { sha256Hex } from '@frete/platform';
import { companyStream, credentialHandler, credentialStream } from '../../services/application/src/credential/handler';
import { EMPRESA, especificacaoDeHandler, naStream } from '../support/especificacao';

/**
 * The company's API credentials at the handler level (the panel's and the operator tool's paths over HTTP are
 * test/console/integracao and test/ops): the secret leaves once, only its hash and hint are recorded.
 */
const CREDENCIAL = '0f6b2d8e-3c4a-4e59-8a7b-1c2d3e4f5a6b';
const empresa = naStream(companyStream(EMPRESA), {
  type: 'company.registered',
  data: {
    company_id: EMPRESA,
    cnpj: '11222333000181',
    razao_social: 'TRANSPORTES TESTE',
    carrier: true,
    fiscal_ready: true,
    fiscal_production: false,
  },
});
const emitida = naStream(credentialStream(CREDENCIAL), {
  type: 'credential.issued',
  data: {
    credential_id: CREDENCIAL,
    company_id: EMPRESA,
    kind: 'api-key',
    environment: 'homologacao',
    scopes: ['fiscal'],
    secret_sha256: 'a'.repeat(64),
    client_id: null,
    hint: 'fk_test_abc',
  },
});

describe('credential handler', () => {
  const spec = especificacaoDeHandler(({ store }) => credentialHandler({ store, environment: 'homologacao' }));

  it("issues an API key for the deployment's environment: scopes deduplicated and sorted, the key's hash recorded, never the key", async () => {
    const { resultado, position } = await spec
      .given(empresa)
      .when((h, ctx) => h.emitir(ctx, { kind: 'api-key', scopes: ['operacao', 'fiscal', 'fiscal'] }))
      .then({
        type: 'credential.issued',
        data: {
          credential_id: expect.any(String),
          company_id: EMPRESA,
          kind: 'api-key',
          environment: 'homologacao',
          scopes: ['fiscal', 'operacao'],
          secret_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          client_id: null,
          hint: expect.any(String),
        },
      });
    if (resultado.kind !== 'api-key') throw new Error('an API key was asked');
    expect(resultado).toMatchObject({ company_id: EMPRESA, environment: 'homologacao', scopes: ['fiscal', 'operacao'] });
    expect(position).not.toBeNull();
  });

  it("an OAuth client's secret is hashed; its client id is recorded", async () => {
    const { resultado } = await spec
      .given(empresa)
      .when((h, ctx) => h.emitir(ctx, { kind: 'oauth', scopes: ['fiscal'] }))
      .then({
        type: 'credential.issued',
        data: expect.objectContaining({ kind: 'oauth', client_id: expect.any(String), secret_sha256: expect.any(String) }),
      });
    if (resultado.kind !== 'oauth') throw new Error('an OAuth client was asked');
    expect(resultado.client_secret).not.toBe('');
  });

  it('records the hash and hint of exactly the secret it answers', async () => {
    const { resultado, gravados } = await spec
      .given(empresa)
      .when((h, ctx) => h.emitir(ctx, { kind: 'api-key', scopes: ['fiscal'] }))
      .run();
    if (resultado.resultado.kind !== 'api-key') throw new Error('an API key was asked');
    const chave = resultado.resultado.api_key;
    expect(gravados.map((e) => e.data)).toEqual([
      expect.objectContaining({
        credential_id: resultado.resultado.credential_id,
        secret_sha256: sha256Hex(chave),
        hint: chave.slice(0, 11),
      }),
    ]);
  });

  it('400 validacao for an unknown scope; 404 nao_encontrado for a company that does not exist', async () => {
    await spec
      .given(empresa)
      .when((h, ctx) => h.emitir(ctx, { kind: 'api-key', scopes: ['fiscal', 'admin'] }))
      .thenRejects('validacao');
    await spec
      .given()
      .when((h, ctx) => h.emitir(ctx, { kind: 'api-key', scopes: ['fiscal'] }))
      .thenRejects('nao_encontrado');
  });

  it('revokes a credential of the company; revoking again appends nothing and says so', async () => {
    const revogar = spec.given(emitida).when((h, ctx) => h.revogar(ctx, CREDENCIAL));
    const primeira = await revogar.then({ type: 'credential.revoked', data: { credential_id: CREDENCIAL, company_id: EMPRESA } });
    expect(primeira.resultado).toEqual({ credential_id: CREDENCIAL, revoked: true });
    const segunda = await revogar.again().thenNothing();
    expect(segunda).toEqual({ resultado: { credential_id: CREDENCIAL, revoked: false }, position: null });
  });

  it("404 nao_encontrado for another company's credential, an unknown id and a malformed id", async () => {
    await especificacaoDeHandler(({ store }) => credentialHandler({ store, environment: 'homologacao' }), { companyId: 'outra' })
      .given(emitida)
      .when((h, ctx) => h.revogar(ctx, CREDENCIAL))
      .thenRejects('nao_encontrado');
    await spec
      .given()
      .when((h, ctx) => h.revogar(ctx, CREDENCIAL))
      .thenRejects('nao_encontrado');
    await spec
      .given()
      .when((h, ctx) => h.revogar(ctx, 'nao-e-um-uuid'))
      .thenRejects('nao_encontrado');
  });

  it("names a credential's company for the operator tool; null for an unknown one", async () => {
    expect(
      await spec
        .given(emitida)
        .when((h) => h.empresaDe(CREDENCIAL))
        .thenNothing(),
    ).toBe(EMPRESA);
    expect(
      await spec
        .given()
        .when((h) => h.empresaDe('nao-e-um-uuid'))
        .thenNothing(),
    ).toBeNull();
  });
});
