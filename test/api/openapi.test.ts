import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { documentoOpenApi } from '@frete/api';
import { type ErrorCode, ErrorCodes } from '@frete/contracts';
import { expectError, request, startTestApp, type TestApp } from '../support/app';

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

  it("compiles each route's validator on its first request, and every one of them compiles", async () => {
    const validation = app.running.api!.validation;
    // A schema Ajv refuses would fail only its route's first request: every route part's schema is compiled here.
    const total = validation.compileAll();
    expect(total).toBeGreaterThan(150);
    expect(validation.compileAll()).toBe(total);
    // Validated as before: the list's query and the draft's body, with the fields named.
    const a = await app.carrier();
    const fieldsOf = (body: { error: { details: { fields: { field: string }[] } } }) => body.error.details.fields.map((f) => f.field);
    expect(fieldsOf(expectError(await a.call('GET', '/v1/fiscal/motoristas?per_page=0'), 400, 'validacao'))).toEqual([
      'querystring.per_page',
    ]);
    expect(fieldsOf(expectError(await a.call('POST', '/v1/fiscal/motoristas', { cpf: '1234', nome: 'JOSE' }), 400, 'validacao'))).toEqual([
      'cpf',
    ]);
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
      'GET /health/live',
      'GET /health/ready',
      'GET /metrics',
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
      'GET /v1/fiscal/distribuicao',
      'PUT /v1/fiscal/distribuicao',
      'POST /v1/fiscal/distribuicao/consultas',
      'GET /v1/fiscal/distribuicao/documentos',
      'GET /v1/fiscal/distribuicao/documentos/{servico}/{nsu}',
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

/**
 * Issue 16, point 2: the document is valid OpenAPI 3.1 for strict tools (swagger-parser and Redocly's linter, zero
 * errors), every operation has an explicit id, a declared tag and a summary, errors reference the one envelope with
 * an example per code, and the headers every answer carries are documented.
 */
describe('OpenAPI document: what strict tools and client generators need', () => {
  let app: TestApp;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    app = await startTestApp();
    doc = (await request(`${app.url}/v1/openapi.json`, 'GET')).body as OpenApiDoc;
  });
  afterAll(() => app?.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })));

  /** The document in a file, for the validators that run as their own process. */
  const docFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-openapi-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    return file;
  };

  it('declares OpenAPI 3.1.0 and swagger-parser validates it without an error', () => {
    expect(doc.openapi).toBe('3.1.0');
    const file = docFile();
    const run = spawnSync(process.execPath, [path.join(__dirname, '../support/validar-openapi.mjs'), file], { encoding: 'utf8' });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect({ stderr: run.stderr, status: run.status }).toEqual({ stderr: '', status: 0 });
    expect(JSON.parse(run.stdout)).toEqual({ valid: true });
  });

  it('is the document `pnpm client:check` writes without a database (the types CI generates are those of the service)', async () => {
    expect(await documentoOpenApi()).toEqual(doc);
  });

  it("Redocly's linter (recommended rules) finds no error, and only the warnings known to be accepted", () => {
    const file = docFile();
    const cli = require.resolve('@redocly/cli/bin/cli.js');
    // The linter exits non-zero on errors; its JSON report is on stdout either way.
    const run = spawnSync(process.execPath, [cli, 'lint', file, '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // No licence is stated yet; two pairs of paths where one's parameter could match the other's literal segment.
    const accepted = new Set(['info-license', 'no-ambiguous-paths']);
    expect(report.problems.filter((p) => !accepted.has(p.ruleId))).toEqual([]);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('every operation has a unique camelCase operationId, a tag declared (with a description) at the top, and a summary', () => {
    const declared = new Map(doc.tags.map((t) => [t.name, t.description]));
    for (const [name, description] of declared) expect({ name, description: typeof description }).toEqual({ name, description: 'string' });
    const ids = new Map<string, string>();
    for (const { method, path: p, op } of operations()) {
      const where = `${method.toUpperCase()} ${p}`;
      expect({ where, operationId: op.operationId }).toEqual({ where, operationId: expect.stringMatching(/^[a-z][a-zA-Z0-9]+$/) });
      expect({ where, summary: typeof op.summary === 'string' && op.summary.length > 0 }).toEqual({ where, summary: true });
      expect({ where, tags: op.tags?.length }).toEqual({ where, tags: 1 });
      expect({ where, declared: declared.has(op.tags![0]!) }).toEqual({ where, declared: true });
      expect({ id: op.operationId, first: ids.get(op.operationId!) ?? where }).toEqual({ id: op.operationId, first: where });
      ids.set(op.operationId!, where);
    }
    expect(ids.size).toBeGreaterThanOrEqual(106);
    // The ids an integrator's generated client is written against stay as they are.
    expect(doc.paths['/v1/fiscal/cte']!.post!.operationId).toBe('criarRascunhoCte');
    expect(doc.paths['/v1/fiscal/cte-subcontratacao/lote/{batch_id}']!.get!.operationId).toBe('obterLote');
    expect(doc.paths['/v1/fiscal/motoristas']!.get!.operationId).toBe('listarMotoristas');
  });

  it('errors reference the one envelope, with an example for each code a response names, of that status', () => {
    const examples = doc.components.examples!;
    let count = 0;
    for (const { method, path: p, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const where = `${method.toUpperCase()} ${p} ${status}`;
        const json = response.content?.['application/json'];
        if (Number(status) < 400 || p === '/oauth/token' || p === '/health' || p.startsWith('/health/')) continue;
        expect({ where, schema: json?.schema }).toEqual({ where, schema: { $ref: '#/components/schemas/ErrorEnvelope' } });
        expect({ where, media: Object.keys(response.content ?? {}) }).toEqual({ where, media: ['application/json'] });
        const named = Object.entries(json?.examples ?? {});
        expect({ where, examples: named.length > 0 }).toEqual({ where, examples: true });
        for (const [code, ref] of named) {
          const example = examples[ref.$ref.replace('#/components/examples/', '')];
          expect({ where, code, status: ErrorCodes[code as ErrorCode] }).toEqual({ where, code, status: Number(status) });
          expect(example?.value.error).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(500);
    // The common ones, as the issue lists them.
    const put = doc.paths['/v1/fiscal/configuracao']!.put!.responses;
    for (const [status, code] of [
      ['400', 'validacao'],
      ['401', 'nao_autenticado'],
      ['403', 'escopo_nao_habilitado'],
      ['422', 'serie_reservada'],
      ['429', 'limite_requisicoes'],
      ['503', 'consulta_indisponivel'],
    ] as const) {
      expect(Object.keys(put[status]!.content!['application/json']!.examples!)).toContain(code);
    }
    expect(Object.keys(doc.paths['/v1/fiscal/cte/{cte_uuid}']!.put!.responses['404']!.content!['application/json']!.examples!)).toContain(
      'nao_encontrado',
    );
    expect(Object.keys(doc.paths['/v1/fiscal/cte/{cte_uuid}']!.put!.responses['422']!.content!['application/json']!.examples!)).toEqual([
      'cte_nao_editavel',
    ]);
  });

  it('every response documents X-Request-Id; the envelope 429 and 503 (and an idempotent 409) Retry-After; a POST success Idempotent-Replayed', () => {
    expect(doc.components.headers!['X-Request-Id']!.required).toBe(true);
    for (const { method, path: p, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const where = `${method.toUpperCase()} ${p} ${status}`;
        expect({ where, header: response.headers?.['X-Request-Id'] }).toEqual({
          where,
          header: { $ref: '#/components/headers/X-Request-Id' },
        });
        const envelope = response.content?.['application/json']?.schema?.$ref === '#/components/schemas/ErrorEnvelope';
        const idempotent = (op.parameters ?? []).some((x) => x.in === 'header' && x.name === 'idempotency-key');
        if (envelope && (status === '429' || status === '503' || (status === '409' && idempotent)))
          expect({ where, header: response.headers?.['Retry-After'] }).toEqual({
            where,
            header: { $ref: '#/components/headers/Retry-After' },
          });
        // A retry with the same Idempotency-Key may get the first answer again, marked as such.
        if (idempotent && Number(status) < 300)
          expect({ where, header: response.headers?.['Idempotent-Replayed'] }).toEqual({
            where,
            header: { $ref: '#/components/headers/Idempotent-Replayed' },
          });
      }
    }
    expect(operations().filter(({ op }) => (op.parameters ?? []).some((x) => x.name === 'idempotency-key')).length).toBeGreaterThan(30);
  });

  it('answers match the document: the status and code a route answers are among its examples, with the X-Request-Id header', async () => {
    const c = await app.carrier();
    const documented = (p: string, method: string, status: number) =>
      Object.keys(doc.paths[p]![method]!.responses[String(status)]?.content?.['application/json']?.examples ?? {});
    const cases = [
      {
        res: await c.call('GET', '/v1/fiscal/cte-subcontratacao/lote/3f1c2a9e-8b7d-4c6e-9a1b-2d3e4f5a6b7c'),
        p: '/v1/fiscal/cte-subcontratacao/lote/{batch_id}',
        m: 'get',
      },
      { res: await c.call('POST', '/v1/fiscal/cte', { tipo_servico: 9 }), p: '/v1/fiscal/cte', m: 'post' },
      { res: await request(`${app.url}/v1/fiscal/cte`, 'GET'), p: '/v1/fiscal/cte', m: 'get' },
      { res: await c.call('GET', '/v1/fiscal/cte/3f1c2a9e-8b7d-4c6e-9a1b-2d3e4f5a6b7c'), p: '/v1/fiscal/cte/{cte_uuid}', m: 'get' },
    ];
    expect(cases.map((x) => [x.res.status, x.res.body.error.code])).toEqual([
      [404, 'lote_nao_encontrado'],
      [400, 'validacao'],
      [401, 'nao_autenticado'],
      [404, 'nao_encontrado'],
    ]);
    for (const { res, p, m } of cases) {
      expect(documented(p, m, res.status)).toContain(res.body.error.code);
      expect(res.headers.get('x-request-id')).toBe(res.body.error.request_id);
    }
  });
});

interface OpenApiResponse {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, { schema?: { $ref?: string }; examples?: Record<string, { $ref: string }> }>;
}
interface OpenApiDoc {
  openapi: string;
  tags: { name: string; description?: string }[];
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        summary?: string;
        tags?: string[];
        parameters?: { name: string; in: string }[];
        responses: Record<string, OpenApiResponse>;
      }
    >
  >;
  components: {
    headers?: Record<string, { required?: boolean }>;
    examples?: Record<string, { value: { error: Record<string, unknown> } }>;
  };
}
