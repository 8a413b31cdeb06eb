import { createHash } from 'node:crypto';
import { pdfPagesText } from '@frete/documents';
import { startTestApp, expectError, request, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml, nfeKey } from '../support/cte-xml';

const sha = (b: string) => createHash('sha256').update(b).digest('hex');
const grouped = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');

describe('GET /fiscal/cte/{cte_uuid}/dacte', () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;
  const own = { id: '', chave: '', xml: '', nfe: '' };

  /** The PDF as bytes: the test client's `call` reads bodies as text. */
  const dacte = async (carrier: TestCarrier, id: string) => {
    const res = await fetch(`${app.url}/v1/fiscal/cte/${id}/dacte`, { headers: { authorization: `Bearer ${carrier.apiKey}` } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const deliver = async (xml: string) => {
    const res = await c.call('POST', '/v1/fiscal/cte-emitidos', { xml });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ name: 'TRANSPORTADORA SÃO JOSÉ LTDA' });
    other = await app.carrier({ name: 'OUTRA TRANSPORTADORA LTDA' });
    own.nfe = nfeKey();
    const built = buildCteXml({
      emitenteCnpj: c.cnpj,
      emitenteNome: 'TRANSPORTADORA SÃO JOSÉ LTDA',
      destinatario: {
        cnpj: '45997418000153',
        nome: 'DESTINATÁRIO COMÉRCIO DE AÇÚCAR SA',
        municipio: 'RIO DE JANEIRO',
        codigoIbge: '3304557',
        uf: 'RJ',
      },
      vTPrest: '1500.00',
      nfeChaves: [own.nfe],
    });
    Object.assign(own, built);
    own.id = await deliver(built.xml);
  });
  afterAll(() => app?.close());

  it('200: the DACTE as an inline PDF named after the key, with the key, parties, value, protocol and sandbox marking', async () => {
    const res = await dacte(c, own.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${own.chave}-dacte.pdf"`);
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const pages = (await pdfPagesText(res.bytes)).map((p) => p.replace(/\s+/g, ' '));
    expect(pages).toHaveLength(1);
    const text = pages[0]!;
    const protocolo = /<nProt>(\d+)<\/nProt>/.exec(own.xml)![1]!;
    for (const expected of [
      'DACTE',
      grouped(own.chave),
      'TRANSPORTADORA SÃO JOSÉ LTDA',
      'DESTINATÁRIO COMÉRCIO DE AÇÚCAR SA',
      'REMETENTE INDUSTRIA LTDA',
      '1.500,00',
      'SEM VALOR FISCAL',
      'AMBIENTE DE HOMOLOGAÇÃO',
      protocolo,
      own.nfe,
      'CAMPINAS - SP',
      'RIO DE JANEIRO - RJ',
      '12345678',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('CANCELADO');
  });

  it('422 cte_nao_autorizado for a CT-e delivered without its protocol', async () => {
    const bare = buildCteXml({ emitenteCnpj: c.cnpj, protocolo: false });
    const id = await deliver(bare.xml);
    expectError(await c.call('GET', `/v1/fiscal/cte/${id}/dacte`), 422, 'cte_nao_autorizado');
  });

  it("404 for another company's CT-e, an unknown id and a malformed id", async () => {
    expectError(await other.call('GET', `/v1/fiscal/cte/${own.id}/dacte`), 404, 'nao_encontrado');
    expectError(await c.call('GET', '/v1/fiscal/cte/8a0c5f52-3f0e-4a53-9a57-2d5e1d9c0b11/dacte'), 404, 'nao_encontrado');
    expectError(await c.call('GET', '/v1/fiscal/cte/not-a-uuid/dacte'), 404, 'nao_encontrado');
  });

  it('503 xml_indisponivel while the archived XML cannot be read; the retry then delivers', async () => {
    const hash = sha(own.xml);
    const saved = await app.db.pool.query('SELECT content FROM documents WHERE sha256 = $1', [hash]);
    expect(saved.rows).toHaveLength(1);
    await app.db.pool.query('UPDATE documents SET content = $2 WHERE sha256 = $1', [hash, Buffer.from('corrompido')]);
    try {
      expectError(await c.call('GET', `/v1/fiscal/cte/${own.id}/dacte`), 503, 'xml_indisponivel');
    } finally {
      await app.db.pool.query('UPDATE documents SET content = $2 WHERE sha256 = $1', [hash, saved.rows[0].content]);
    }
    expect((await dacte(c, own.id)).status).toBe(200);
  });

  it('is documented as a PDF answer', async () => {
    const doc = (await request(`${app.url}/v1/openapi.json`, 'GET')).body;
    const op = doc.paths['/v1/fiscal/cte/{cte_uuid}/dacte'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual(['application/pdf']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '404', '422', '503']));
  });
});
