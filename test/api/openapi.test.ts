import { request, startTestApp, type TestApp } from '../support/app';

describe('OpenAPI, docs and health', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('GET /health answers 200 once ready', async () => {
    const res = await request(`${app.url}/health`, 'GET');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', environment: 'homologacao' });
  });

  it('documents every route that exists, generated from the schemas', async () => {
    const res = await request(`${app.url}/v1/openapi.json`, 'GET');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('1.0.0');
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${path}`);
    }
    const routes = app.running.api!.printRoutes({ commonPrefix: false, includeHooks: false });
    const expected = [
      'POST /oauth/token',
      'GET /.well-known/jwks.json',
      'GET /health',
      'GET /v1/fiscal/status',
      'GET /v1/fiscal/catalogos',
      'GET /v1/fiscal/painel',
      'GET /v1/fiscal/configuracao',
      'PUT /v1/fiscal/configuracao',
      'GET /v1/fiscal/certificado',
      'POST /v1/fiscal/certificado',
      'DELETE /v1/fiscal/certificado',
      'GET /v1/fiscal/cte-subcontratacao',
      'POST /v1/fiscal/cte-subcontratacao',
      'GET /v1/fiscal/cte-subcontratacao/{access_key}',
      'GET /v1/fiscal/cte-subcontratacao/{access_key}/xml',
      'GET /v1/fiscal/cte-subcontratacao/autorizacoes',
      'POST /v1/fiscal/cte-subcontratacao/autorizacoes',
      'DELETE /v1/fiscal/cte-subcontratacao/autorizacoes/{cnpj}',
      'POST /v1/fiscal/cte-subcontratacao/lote',
      'GET /v1/fiscal/cte-subcontratacao/lote/{batch_id}',
      'POST /v1/fiscal/cte-emitidos',
      'GET /v1/fiscal/cte',
      'GET /v1/fiscal/cte/{cte_uuid}',
      'GET /v1/fiscal/cte/{cte_uuid}/xml',
      'GET /v1/fiscal/cte/{cte_uuid}/dacte',
      'POST /v1/fiscal/cte/{cte_uuid}/subcontratacao',
      'POST /v1/fiscal/cte/contra',
      'POST /v1/fiscal/cte/{cte_uuid}/previa',
      'POST /v1/fiscal/cte/{cte_uuid}/eventos/cancelamento',
      'POST /v1/fiscal/cte/{cte_uuid}/eventos/carta-correcao',
      'POST /v1/fiscal/cte/{cte_uuid}/eventos/entrega',
      'POST /v1/fiscal/cte/{cte_uuid}/eventos/entrega/cancelamento',
      'POST /v1/fiscal/cte/{cte_uuid}/eventos/{event_key}/reconciliacao',
      'GET /v1/fiscal/nfe',
      'POST /v1/fiscal/nfe/importacoes',
      'GET /v1/fiscal/nfe/{access_key}',
      'DELETE /v1/fiscal/nfe/{access_key}',
      'GET /v1/fiscal/regras-tributacao',
      'POST /v1/fiscal/regras-tributacao',
      'GET /v1/fiscal/regras-tributacao/aplicavel',
      'GET /v1/fiscal/regras-tributacao/{id}',
      'PUT /v1/fiscal/regras-tributacao/{id}',
      'DELETE /v1/fiscal/regras-tributacao/{id}',
      'POST /v1/fiscal/veiculos',
      'GET /v1/fiscal/veiculos',
      'GET /v1/fiscal/veiculos/{id}',
      'PUT /v1/fiscal/veiculos/{id}',
      'DELETE /v1/fiscal/veiculos/{id}',
      'POST /v1/fiscal/motoristas',
      'GET /v1/fiscal/motoristas',
      'GET /v1/fiscal/motoristas/{id}',
      'PUT /v1/fiscal/motoristas/{id}',
      'DELETE /v1/fiscal/motoristas/{id}',
      'POST /v1/fiscal/mdfe',
      'GET /v1/fiscal/mdfe',
      'GET /v1/fiscal/mdfe/{mdfe_uuid}',
      'POST /v1/fiscal/mdfe/{mdfe_uuid}/emissao',
      'POST /v1/fiscal/mdfe/{mdfe_uuid}/consulta',
      'GET /v1/fiscal/mdfe/{mdfe_uuid}/xml',
      'GET /v1/fiscal/mdfe/{mdfe_uuid}/damdfe',
      'POST /v1/fiscal/mdfe/{mdfe_uuid}/eventos/cancelamento',
      'POST /v1/fiscal/mdfe/{mdfe_uuid}/eventos/encerramento',
      'POST /v1/fiscal/mdfe/{mdfe_uuid}/eventos/condutor',
      'POST /v1/fiscal/ciot',
      'GET /v1/fiscal/ciot/{ciot_uuid}',
      'POST /v1/fiscal/cte/{cte_uuid}/ciot/validacao',
      'POST /v1/fiscal/cte/{cte_uuid}/ciot/emissao',
      'GET /v1/fiscal/cte/{cte_uuid}/ciot',
      'POST /v1/fiscal/cte/{cte_uuid}/ciot/inicio-viagem',
      'POST /v1/fiscal/cte/{cte_uuid}/ciot/cancelamento',
      'POST /v1/fiscal/cte/{cte_uuid}/ciot/retificacao',
      'POST /v1/fiscal/cte/{cte_uuid}/ciot/encerramento',
      'GET /v1/carriers/parcelas-repasse/{documento}',
      'POST /v1/carriers/parcelas-repasse/liberar',
      'POST /v1/carriers/parcelas-repasse/pagar',
      'POST /v1/carriers/parcelas-repasse/{documento}/bipagem',
      'POST /v1/carriers/parcelas-repasse/{documento}/conclusao',
      'POST /v1/carriers/parcelas-repasse/{documento}/prestacao-contas',
      'POST /v1/carriers/parcelas-repasse/liberar-por-mdfe',
      'POST /v1/carriers/parcelas-repasse/pagar-por-mdfe',
      'POST /v1/vale-pedagio/roteirizacao',
      'POST /v1/vale-pedagio/calculo',
      'POST /v1/vale-pedagio',
      'GET /v1/vale-pedagio',
      'GET /v1/vale-pedagio/{uuid}',
      'GET /v1/vale-pedagio/{uuid}/recibo',
      'POST /v1/vale-pedagio/{uuid}/passagens',
      'POST /v1/vale-pedagio/{uuid}/cancelar',
      'GET /v1/conta-operacional',
      'GET /v1/conta-operacional/extrato',
      'POST /v1/conta-operacional/creditos',
      'GET /v1/consultas/rntrc',
      'GET /v1/consultas/frota',
      'POST /v1/convites/transportadoras',
      'GET /v1/convites/transportadoras',
      'GET /v1/convites/transportadoras/{id}',
      'GET /v1/agregados',
      'GET /v1/agregados/{documento}',
      'POST /v1/chaves-pix/verificacao',
    ];

    for (const e of expected) expect(documented).toContain(e);
    expect(routes).toContain('configuracao');
    const put = doc.paths['/v1/fiscal/configuracao'].put;
    expect(put.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/FiscalConfigurationUpdate');
    expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '422', '429', '500']));
    expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.code).toBeDefined();
    expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
  });

  it('serves a browsable docs page at the address the banner and README print (/v1/docs) and with a slash', async () => {
    for (const page of [`${app.url}/v1/docs`, `${app.url}/v1/docs/`]) {
      const res = await fetch(page, { redirect: 'follow' });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toMatch(/swagger-ui/i);
      // The page is blank unless its scripts and styles load from where the page points them.
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, res.url).toString());
      expect(assets.length).toBeGreaterThan(3);
      for (const asset of assets) {
        const got = await fetch(asset);
        await got.arrayBuffer();
        expect({ asset, status: got.status }).toEqual({ asset, status: 200 });
      }
    }
  });
});
