import { startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml, nfeKey } from '../support/cte-xml';
import { danfePdf, nfeSample } from '../support/nfe-files';
import { iniciarReceptor, type Receptor, type Recebido, verificar, AMBIENTE_COM_WEBHOOKS } from '../support/receptor-webhooks';

const S_HML = '41170706117473000150550010000463202612756525-procNFe.xml';
const K_HML = '41170706117473000150550010000463202612756525';
const S_A = '35180834128745000152550010000474281920007498-nfe.xml';
const K_A = '35180834128745000152550010000474281920007498';

interface Payload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const importar = (c: TestCarrier, name: string, content: Buffer, type: string) => {
  const f = new FormData();
  f.append('arquivos[]', new Blob([new Uint8Array(content)], { type }), name);
  return c.call('POST', '/v1/fiscal/nfe/importacoes', f);
};

/**
 * Documents that arrive: `inbox.cte_recebido` (a key's first receipt in the inbox) and `nfe.recebida` (an NF-e's XML
 * reaching the list for the first time), delivered to a real receiver and verified with `standardwebhooks` as the
 * other types are. Receipts of what is already there are not news.
 */
describe('webhooks inbox.cte_recebido and nfe.recebida', () => {
  let app: TestApp;
  let c: TestCarrier;
  let receptor: Receptor;
  let secret: string;
  let secretNfe: string;

  beforeAll(async () => {
    receptor = await iniciarReceptor();
    app = await startTestApp(AMBIENTE_COM_WEBHOOKS);
    c = await app.carrier({ name: 'TRANSPORTES RECEBEDORA LTDA', scopes: ['fiscal', 'webhooks'] });
    const hook = await c.call('POST', '/v1/webhooks', {
      url: `${receptor.url}/recebidos`,
      eventos: ['inbox.cte_recebido', 'nfe.recebida'],
    });
    expect(hook.status).toBe(201);
    expect(hook.body.data.eventos).toEqual(['inbox.cte_recebido', 'nfe.recebida']);
    secret = hook.body.data.secret as string;
    // Another endpoint of the same company subscribed to NF-e only: it never gets an inbox CT-e.
    const soNfe = await c.call('POST', '/v1/webhooks', { url: `${receptor.url}/so-nfe`, eventos: ['nfe.recebida'] });
    expect(soNfe.status).toBe(201);
    secretNfe = soNfe.body.data.secret as string;
  });
  afterAll(async () => {
    await app?.close();
    await receptor?.close();
  });

  const payloads = (path: string, s: string) => receptor.dePath(path).map((r: Recebido) => verificar(s, r) as Payload);

  it("an uploaded CT-e's first receipt is inbox.cte_recebido (signed, with its key and channel); the same upload again is not", async () => {
    const { chave, xml } = buildCteXml({ emitenteCnpj: '60701190000104', emitenteNome: 'CONTRATANTE SA', nfeChaves: [nfeKey()] });
    const primeiro = await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml });
    expect(primeiro.status).toBe(201);
    const [r] = await receptor.esperar('/recebidos', 1);
    const p = verificar(secret, r!) as Payload;
    expect(p.type).toBe('inbox.cte_recebido');
    expect(r!.headers['webhook-id']).toMatch(/.+/);
    expect(p.data).toEqual({
      id: chave,
      environment: 'homologacao',
      url: expect.stringMatching(new RegExp(`/v1/fiscal/cte-subcontratacao/${chave}$`)),
      chave,
      origem: 'envio',
      canal: 'api',
      nsu: null,
      papel_transportadora: 'terceiro',
      permite_contra_cte: expect.any(Boolean),
    });
    // The resource it names is there to GET with the same credential.
    const get = await c.call('GET', new URL(p.data.url as string, app.url).pathname);
    expect(get.status).toBe(200);
    expect(get.body.data.access_key).toBe(chave);
    expect(get.body.data.origem).toBe(p.data.origem);

    // The same bytes again count a receipt, and tell nothing.
    expect((await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml })).status).toBeLessThan(300);
  });

  it("an NF-e's XML arriving first is nfe.recebida: after a PDF's key (completou_chave), or directly; the PDF and a re-import are not", async () => {
    // The DANFE gives only the key: nothing arrives yet.
    const pdf = await importar(c, 'danfe.pdf', await danfePdf([{ key: K_HML }]), 'application/pdf');
    expect(pdf.status).toBe(201);
    const xmlHml = nfeSample(S_HML);
    expect((await importar(c, 'nota.xml', xmlHml, 'text/xml')).status).toBe(201);
    expect((await importar(c, 'nota-de-novo.xml', xmlHml, 'text/xml')).status).toBe(201);
    expect((await importar(c, 'a.xml', nfeSample(S_A), 'text/xml')).status).toBe(201);

    const recebidas = (await receptor.esperar('/so-nfe', 2)).map((r) => verificar(secretNfe, r) as Payload);
    expect(recebidas.map((p) => [p.type, p.data.chave, p.data.completou_chave])).toEqual([
      ['nfe.recebida', K_HML, true],
      ['nfe.recebida', K_A, false],
    ]);
    expect(recebidas[0]!.data).toEqual({
      id: K_HML,
      environment: 'homologacao',
      url: expect.stringMatching(new RegExp(`/v1/fiscal/nfe/${K_HML}$`)),
      chave: K_HML,
      origem: 'importacao',
      canal: 'importacao',
      nsu: null,
      completou_chave: true,
    });
    for (const p of recebidas) {
      const get = await c.call('GET', new URL(p.data.url as string, app.url).pathname);
      expect(get.status).toBe(200);
      expect(get.body.data.origem).toBe(p.data.origem);
    }

    // The endpoint of both types has both NF-e, and of the CT-e uploaded twice only its first receipt: the log is read in
    // order, so by the time the last NF-e is delivered every earlier event has been looked at.
    await receptor.esperar('/recebidos', 3);
    expect(payloads('/recebidos', secret).map((p) => p.type)).toEqual(['inbox.cte_recebido', 'nfe.recebida', 'nfe.recebida']);
    expect(payloads('/so-nfe', secretNfe)).toHaveLength(2);
  });

  it('the delivery log lists each with its type', async () => {
    const hooks = await c.call('GET', '/v1/webhooks');
    const id = (hooks.body.data as { id: string; url: string }[]).find((h) => h.url.endsWith('/recebidos'))!.id;
    const entregas = await c.call('GET', `/v1/webhooks/${id}/entregas`);
    expect(entregas.status).toBe(200);
    expect((entregas.body.data as { tipo: string }[]).map((e) => e.tipo).sort()).toEqual([
      'inbox.cte_recebido',
      'nfe.recebida',
      'nfe.recebida',
    ]);
  });
});
