import { randomCnpj, request, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { nfeKey } from '../support/cte-xml';
import { expectLoopNotBlocked } from '../support/event-loop';
import {
  HOSTILE_URL_VALUES,
  type HostileRequest,
  type OpenApiDocument,
  type Operation,
  type Plausible,
  SchemaSampler,
  hostileFormBodies,
  hostileJsonBodies,
  hostileMultipartBodies,
  pick,
} from '../support/openapi-hostil';

/**
 * Issue 11: a sweep generated from the OpenAPI document. Every operation gets hostile values in each parameter and
 * in its body (NUL and control characters, invalid UTF-8, a lone surrogate, numbers at and beyond their bounds,
 * huge and empty strings, 10,000 levels of JSON, wrong types, broken multipart), sampled per field. Each answer
 * must be an envelope 4xx with X-Request-Id (or a 2xx the operation documents, where the value is in fact valid),
 * never a 5xx, and no request may hold the event loop.
 */
describe('every operation of the OpenAPI document, sent hostile values', () => {
  let app: TestApp;
  let c: TestCarrier;
  let doc: OpenApiDocument;
  let sampler: SchemaSampler;
  let plausible: Plausible;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '1000000', RATE_LIMIT_IP_PER_MIN: '1000000' });
    c = await app.carrier({ scopes: ['fiscal', 'operacao', 'cadastros', 'consultas', 'auditoria', 'webhooks'] });
    doc = (await request(`${app.url}/v1/openapi.json`, 'GET')).body as OpenApiDocument;
    // Real resources where the path names one, so that hostile bodies reach the handlers behind the lookup.
    const created = async (path: string, body: unknown) => {
      const res = await c.call('POST', path, body);
      if (res.status !== 201) throw new Error(`setup ${path}: ${res.status} ${res.text}`);
      return String(res.body.data.id);
    };
    const ids: Record<string, string> = {
      '/v1/fiscal/cte/': await created('/v1/fiscal/cte', { observacoes: 'RASCUNHO DA VARREDURA' }),
      '/v1/fiscal/motoristas/': await created('/v1/fiscal/motoristas', { cpf: '52998224725', nome: 'JOAO DA SILVA' }),
      '/v1/fiscal/veiculos/': await created('/v1/fiscal/veiculos', { placa: 'ABC1D23' }),
      '/v1/fiscal/regras-tributacao/': await created('/v1/fiscal/regras-tributacao', {
        uf_origem: 'SP',
        uf_destino: 'RJ',
        icms: { cst: '00', aliquota: 12 },
      }),
      // A public address: this app runs no dispatcher, so nothing is sent to it.
      '/v1/webhooks/': await created('/v1/webhooks', { url: 'https://8.8.8.8/hook', eventos: ['cte.autorizado'] }),
    };
    const accessKey = nfeKey();
    plausible = {
      cpf: '52998224725',
      cnpj: randomCnpj(),
      accessKey,
      pathParam: (path, name) => {
        const own = Object.entries(ids).find(([prefix]) => path.startsWith(`${prefix}{`));
        if (own && (name === 'id' || name === 'cte_uuid')) return own[1];
        if (name === 'access_key') return accessKey;
        if (name === 'documento') return '52998224725';
        if (name === 'cnpj') return plausible.cnpj;
        if (name === 'event_key') return `ID110110${accessKey}001`;
        return '3f1c2a9e-8b7d-4c6e-9a1b-2d3e4f5a6b7c';
      },
    };
    sampler = new SchemaSampler(doc, plausible);
  }, 120_000);
  afterAll(() => app?.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );

  const fill = (path: string, op: Operation, hostile?: { name: string; value: string }) =>
    path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      hostile?.name === name ? hostile.value : encodeURIComponent(plausible.pathParam(path, name)),
    );

  const auth = () => ({ authorization: `Bearer ${c.apiKey}` });

  /** Path, query and header parameters: each gets a few hostile values; the others keep plausible ones. */
  function parameterRequests(method: string, path: string, op: Operation): HostileRequest[] {
    const out: HostileRequest[] = [];
    const params = op.parameters ?? [];
    params.forEach((p, i) => {
      for (const value of pick(HOSTILE_URL_VALUES, i, 3)) {
        const label = `${p.in} ${p.name} = ${value.slice(0, 30)}${value.length > 30 ? `… (${value.length})` : ''}`;
        if (p.in === 'path') out.push({ label, method, url: fill(path, op, { name: p.name, value }), headers: auth() });
        else if (p.in === 'query') out.push({ label, method, url: `${fill(path, op)}?${p.name}=${value}`, headers: auth() });
      }
      if (p.in === 'header') {
        for (const value of ['x'.repeat(8_000), '', 'ação-ç', ' ']) {
          out.push({
            label: `header ${p.name} = ${value.slice(0, 20)} (${value.length})`,
            method,
            url: fill(path, op),
            headers: { ...auth(), [p.name]: value },
          });
        }
      }
    });
    const query = params.filter((p) => p.in === 'query');
    if (query.length > 0) {
      out.push({
        label: 'every query parameter twice',
        method,
        url: `${fill(path, op)}?${query.map((p) => `${p.name}=1&${p.name}=2`).join('&')}`,
        headers: auth(),
      });
    }
    out.push({ label: 'an undeclared query parameter with NUL', method, url: `${fill(path, op)}?extra=%00`, headers: auth() });
    return out;
  }

  /** Bodies of the operation's media types: JSON, multipart or form, hostile at each (sampled) field and as a whole. */
  function bodyRequests(method: string, path: string, op: Operation): HostileRequest[] {
    const content = op.requestBody?.content ?? {};
    const url = fill(path, op);
    const out: HostileRequest[] = [];
    const json = content['application/json'];
    if (json) {
      for (const b of hostileJsonBodies(sampler, json.schema, 8)) {
        out.push({ label: `JSON ${b.label}`, method, url, headers: { ...auth(), 'content-type': 'application/json' }, body: b.body });
      }
    }
    const multipart = content['multipart/form-data'];
    if (multipart) {
      for (const b of hostileMultipartBodies(sampler.resolve(multipart.schema))) {
        out.push({ label: `multipart ${b.label}`, method, url, headers: { ...auth(), 'content-type': b.contentType }, body: b.body });
      }
    }
    const form = content['application/x-www-form-urlencoded'];
    if (form) {
      for (const b of hostileFormBodies(sampler, form.schema)) {
        out.push({ label: `form ${b.label}`, method, url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: b.body });
      }
    }
    return out;
  }

  interface Answer {
    status: number;
    requestId: string | null;
    body: unknown;
    text: string;
  }

  async function send(r: HostileRequest): Promise<Answer> {
    // A hang guard, not a speed check: a request that never ends fails here with its label instead of a bare timeout.
    const res = await fetch(app.url + r.url, {
      method: r.method,
      headers: r.headers,
      body: r.body && new Uint8Array(r.body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, requestId: res.headers.get('x-request-id'), body, text };
  }

  /**
   * One after another: several identical requests at once are the concurrency suite's subject; here each answer
   * must follow from its hostile value alone.
   */
  async function sendAll(requests: HostileRequest[]): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (const r of requests) answers.push(await send(r));
    return answers;
  }

  /** What is wrong with the answer, or null. */
  function fault(path: string, op: Operation, a: Answer): string | null {
    if (a.status >= 500) return `${a.status} ${a.text.slice(0, 200)}`;
    if (!a.requestId) return `${a.status} without X-Request-Id`;
    if (a.status >= 400) {
      const body = a.body as { error?: unknown } | undefined;
      if (path === '/oauth/token')
        return typeof body?.error === 'string' ? null : `${a.status} not an RFC 6749 error: ${a.text.slice(0, 200)}`;
      const e = body?.error as { code?: unknown; message?: unknown; request_id?: unknown } | undefined;
      if (typeof e?.code !== 'string' || typeof e.message !== 'string') return `${a.status} without the envelope: ${a.text.slice(0, 200)}`;
      return e.request_id === a.requestId ? null : `${a.status} request_id ${String(e.request_id)} is not X-Request-Id ${a.requestId}`;
    }
    return String(a.status) in op.responses ? null : `undocumented ${a.status}: ${a.text.slice(0, 200)}`;
  }

  async function sweep(
    build: (method: string, path: string, op: Operation) => HostileRequest[],
  ): Promise<{ sent: number; faults: string[] }> {
    const faults: string[] = [];
    let sent = 0;
    for (const { method, path, op } of operations()) {
      const requests = build(method, path, op);
      if (requests.length === 0) continue;
      const answers = await expectLoopNotBlocked(() => sendAll(requests));
      sent += requests.length;
      answers.forEach((a, i) => {
        const f = fault(path, op, a);
        if (f) faults.push(`${method} ${path} [${requests[i]!.label}]: ${f}`);
      });
    }
    return { sent, faults };
  }

  it('path, query and header parameters', async () => {
    const { sent, faults } = await sweep(parameterRequests);
    expect(faults).toEqual([]);
    expect(sent).toBeGreaterThan(operations().length);
  }, 300_000);

  it('JSON, multipart and form bodies', async () => {
    const { sent, faults } = await sweep(bodyRequests);
    expect(faults).toEqual([]);
    expect(sent).toBeGreaterThan(operations().filter((o) => o.op.requestBody).length * 10);
  }, 300_000);
});
