import { createHash } from 'node:crypto';
import { startTestApp, expectError, randomCnpj, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml } from '../support/cte-xml';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const mask = (cnpj: string) => `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;

describe('POST /fiscal/cte/{cte_uuid}/subcontratacao (hand-off to a subcontractor)', () => {
  let app: TestApp;
  let contratante: TestCarrier;
  let subcontratada: TestCarrier;
  let cte: { id: string; chave: string; xml: string };

  beforeAll(async () => {
    app = await startTestApp();
    contratante = await app.carrier({ name: 'CONTRATANTE LOGISTICA SA' });
    subcontratada = await app.carrier({ name: 'SUBCONTRATADA ALFA LTDA', cnpj: randomCnpj(true) });
    const built = buildCteXml({ emitenteCnpj: contratante.cnpj, emitenteNome: 'CONTRATANTE LOGISTICA SA' });
    const res = await contratante.call('POST', '/v1/fiscal/cte-emitidos', { xml: built.xml });
    expect(res.status).toBe(201);
    cte = { id: res.body.data.id, chave: built.chave, xml: built.xml };
  });
  afterAll(() => app?.close());

  const handOff = (who: TestCarrier, id: string, body: unknown) => who.call('POST', `/v1/fiscal/cte/${id}/subcontratacao`, body);

  it("201: the archived XML lands byte for byte in the subcontractor's inbox (alphanumeric CNPJ, masked)", async () => {
    const res = await handOff(contratante, cte.id, { subcontratada: { cnpj: mask(subcontratada.cnpj) }, observacao: 'coleta na doca 3' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      environment: 'homologacao',
      data: {
        cte: { id: cte.id, access_key: cte.chave },
        subcontratada: { cnpj: subcontratada.cnpj, nome: 'SUBCONTRATADA ALFA LTDA' },
        recebimento: {
          access_key: cte.chave,
          status: 'recebido',
          carrier_role: 'terceiro',
          allows_counter_cte: true,
          received_count: 1,
          content_updated: false,
        },
      },
    });
    const inbox = await subcontratada.call('GET', `/v1/fiscal/cte-subcontratacao/${cte.chave}`);
    expect(inbox.status).toBe(200);
    expect(inbox.body.data).toMatchObject({
      delivered_by: { cnpj: contratante.cnpj, nome: 'CONTRATANTE LOGISTICA SA', cte_id: cte.id, observacao: 'coleta na doca 3' },
      xml: { sha256: sha(cte.xml) },
    });
    const xml = await fetch(`${app.url}/v1/fiscal/cte-subcontratacao/${cte.chave}/xml`, {
      headers: { authorization: `Bearer ${subcontratada.apiKey}` },
    });
    expect(sha(Buffer.from(await xml.arrayBuffer()))).toBe(sha(cte.xml));
  });

  it('200 on a later delivery, received_count incremented; each delivery is an event on both sides', async () => {
    const res = await handOff(contratante, cte.id, { subcontratada: { cnpj: subcontratada.cnpj } });
    expect(res.status).toBe(200);
    expect(res.body.data.recebimento).toMatchObject({ received_count: 2, content_updated: false });
    const inbox = await app.running.platform.store.readStream(`cte_subcontratacao-${subcontratada.companyId}-${cte.chave}`);
    expect(inbox.map((e) => [e.type, (e.data as { canal: string }).canal])).toEqual([
      ['cte_subcontratacao.recebido', 'repasse'],
      ['cte_subcontratacao.reenviado', 'repasse'],
    ]);
    const own = await app.running.platform.store.readStream(`cte-${cte.id}`);
    expect(own.map((e) => e.type)).toEqual(['cte.emitido_recebido', 'cte.repassado', 'cte.repassado']);
    expect(own[1]!.metadata.actor).toBe(`credential:${contratante.credentialId}`);
  });

  it("no financial action: nothing in the subcontractor's receivables, services or own CT-e", async () => {
    for (const table of ['recebiveis', 'servicos', 'ctes']) {
      const n = await app.db.pool.query(`SELECT count(*)::int AS n FROM rm.${table} WHERE company_id = $1`, [subcontratada.companyId]);
      expect(n.rows[0].n).toBe(0);
    }
  });

  it("404 for an unknown CT-e, another company's CT-e or a malformed id", async () => {
    const body = { subcontratada: { cnpj: subcontratada.cnpj } };
    expectError(await handOff(contratante, '00000000-0000-4000-8000-000000000000', body), 404, 'nao_encontrado');
    expectError(await handOff(subcontratada, cte.id, { subcontratada: { cnpj: contratante.cnpj } }), 404, 'nao_encontrado');
    expectError(await handOff(contratante, 'xyz', body), 404, 'nao_encontrado');
  });

  it('422 cte_nao_autorizado for a CT-e without its authorization', async () => {
    const bare = buildCteXml({ emitenteCnpj: contratante.cnpj, protocolo: false });
    const res = await contratante.call('POST', '/v1/fiscal/cte-emitidos', { xml: bare.xml });
    expectError(await handOff(contratante, res.body.data.id, { subcontratada: { cnpj: subcontratada.cnpj } }), 422, 'cte_nao_autorizado');
  });

  it('422 subcontratada_nao_encontrada, subcontratada_nao_transportadora, subcontratada_igual_contratante', async () => {
    expectError(await handOff(contratante, cte.id, { subcontratada: { cnpj: randomCnpj() } }), 422, 'subcontratada_nao_encontrada');
    const shipper = await app.carrier({ carrier: false, name: 'EMBARCADOR SA' });
    expectError(await handOff(contratante, cte.id, { subcontratada: { cnpj: shipper.cnpj } }), 422, 'subcontratada_nao_transportadora');
    expectError(
      await handOff(contratante, cte.id, { subcontratada: { cnpj: mask(contratante.cnpj) } }),
      422,
      'subcontratada_igual_contratante',
    );
  });

  it('400 validacao: missing or malformed CNPJ, observacao over 255 characters', async () => {
    expectError(await handOff(contratante, cte.id, {}), 400, 'validacao');
    const bad = expectError(await handOff(contratante, cte.id, { subcontratada: { cnpj: '11.111.111/1111-11' } }), 400, 'validacao');
    expect(bad.error.details.fields).toEqual([{ field: 'subcontratada.cnpj', message: expect.any(String) }]);
    expectError(
      await handOff(contratante, cte.id, { subcontratada: { cnpj: subcontratada.cnpj }, observacao: 'x'.repeat(256) }),
      400,
      'validacao',
    );
  });

  it('503 xml_indisponivel when the archived XML cannot be read; the retry then delivers', async () => {
    const third = await app.carrier({ name: 'TERCEIRA TRANSPORTES LTDA' });
    const hash = sha(cte.xml);
    const saved = await app.db.pool.query('SELECT content, content_type, size_bytes FROM documents WHERE sha256 = $1', [hash]);
    await app.db.pool.query('UPDATE documents SET content = $2 WHERE sha256 = $1', [hash, Buffer.from('corrompido')]);
    expectError(await handOff(contratante, cte.id, { subcontratada: { cnpj: third.cnpj } }), 503, 'xml_indisponivel');
    expect((await third.call('GET', '/v1/fiscal/cte-subcontratacao')).body.meta.total).toBe(0);
    await app.db.pool.query('UPDATE documents SET content = $2 WHERE sha256 = $1', [hash, saved.rows[0].content]);
    const retry = await handOff(contratante, cte.id, { subcontratada: { cnpj: third.cnpj } });
    expect(retry.status).toBe(201);
    expect(retry.body.data.recebimento.received_count).toBe(1);
  });
});
