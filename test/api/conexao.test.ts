import http from 'node:http';
import { startTestApp, expectError, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';

interface Sent extends ApiResponse {
  socket: unknown;
}

/** One request on the agent's connection, with the raw socket, so that a test can tell the connection was reused. */
function send(agent: http.Agent, url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode!, headers: h, text, body: parsed, socket: req.socket });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const BOUNDARY = 'frete-test-boundary';
const filePart = (name: string, filename: string, content: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/xml\r\n\r\n`,
    ),
    content,
    Buffer.from('\r\n'),
  ]);
const multipartBody = (parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);

/**
 * Issue 11, defect 4: a multipart upload refused in the middle of its body must leave the keep-alive connection
 * usable: the next request on it is answered (before the fix it waited ~73 s and was reset). Defect 6: 431 has the
 * envelope and X-Request-Id.
 */
describe('the connection after a refusal', () => {
  let app: TestApp;
  let c: TestCarrier;
  let agent: http.Agent;
  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ scopes: ['fiscal'] });
  });
  beforeEach(() => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterEach(() => agent.destroy());
  afterAll(() => app?.close());

  // Large enough that the rest of the body cannot sit in socket buffers: it must be read, or the connection stalls.
  const big = Buffer.alloc(1024 * 1024, '<a/>');

  const refusedThenNext = async (path: string, body: Buffer) => {
    const auth = { authorization: `Bearer ${c.apiKey}` };
    const refused = await send(
      agent,
      app.url + path,
      'POST',
      {
        ...auth,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(body.length),
      },
      body,
    );
    const next = await send(agent, `${app.url}/v1/fiscal/status`, 'GET', auth);
    expect(next.status).toBe(200);
    expect(next.socket).toBe(refused.socket);
    return refused;
  };

  it('two `arquivo` parts on the CT-e inbox: 400, then the next request on the same connection is answered', async () => {
    const res = await refusedThenNext(
      '/v1/fiscal/cte-subcontratacao',
      multipartBody([filePart('arquivo', 'a.xml', Buffer.from('<a/>')), filePart('arquivo', 'b.xml', big)]),
    );
    expect(expectError(res, 400, 'validacao').error.details.fields).toEqual([{ field: 'arquivo', message: 'send exactly one file' }]);
  });

  it('21 files on the NF-e import: 400, then the next request on the same connection is answered', async () => {
    const parts = Array.from({ length: 21 }, (_, i) => filePart('arquivos[]', `nfe-${i}.xml`, i === 20 ? big : Buffer.from('<a/>')));
    const res = await refusedThenNext('/v1/fiscal/nfe/importacoes', multipartBody([...parts, filePart('arquivos[]', 'extra.xml', big)]));
    expect(expectError(res, 400, 'validacao').error.details.fields).toEqual([
      { field: 'arquivos[]', message: 'at most 20 files per request' },
    ]);
  });

  it('a file over the limit on the certificate upload: 413, then the next request on the same connection is answered', async () => {
    const res = await refusedThenNext(
      '/v1/fiscal/certificado',
      multipartBody([filePart('file', 'a.pfx', Buffer.alloc(11 * 1024 * 1024, 1))]),
    );
    expectError(res, 413, 'payload_muito_grande');
  });

  it('headers over the limit: 431 in the envelope, with X-Request-Id', async () => {
    const res = await send(agent, `${app.url}/v1/fiscal/status`, 'GET', {
      authorization: `Bearer ${c.apiKey}`,
      'x-filler': 'a'.repeat(20_000),
    });
    expectError(res, 431, 'cabecalhos_muito_grandes');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
