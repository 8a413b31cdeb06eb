import { createHash } from 'node:crypto';
import { startTestApp, expectError, randomCnpj, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml, nfeKey } from '../support/cte-xml';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('POST /fiscal/cte-emitidos (own CT-e delivered by the carrier) and the own CT-e reads', () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;

  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ name: 'TRANSPORTADORA PROPRIA LTDA' });
    other = await app.carrier({ name: 'OUTRA LTDA' });
  });
  afterAll(() => app?.close());

  const route = '/v1/fiscal/cte-emitidos';
  const tomador = { cnpj: randomCnpj(), nome: 'TOMADOR DO FRETE SA' };

  describe('first delivery and resubmission', () => {
    const nfe = nfeKey();
    const own = { chave: '', xml: '' };
    let cteId: string;
    let xml: string;

    beforeAll(() => {
      // The carrier's CNPJ is known only once the outer beforeAll has run.
      Object.assign(
        own,
        buildCteXml({ emitenteCnpj: c.cnpj, toma: 4, tomador4: tomador, vTPrest: '1999.99', vRec: '1800.50', nfeChaves: [nfe] }),
      );
      xml = own.xml;
    });

    it('201 with first_reception true: an own, authorized CT-e', async () => {
      const res = await c.call('POST', route, { xml });
      expect(res.status).toBe(201);
      const d = res.body.data;
      expect(d).toMatchObject({
        first_reception: true,
        access_key: own.chave,
        situacao: 'autorizado',
        origem: 'cte_emitido',
        environment: 'homologacao',
        service_type: 0,
        received_count: 1,
        rascunho: null,
        documento: {
          access_key: own.chave,
          service_value: 1999.99,
          amount_receivable: 1800.5,
          emitente: { documento: c.cnpj },
          tomador: { papel: 'outros', parte: { documento: tomador.cnpj, nome: tomador.nome } },
          nfe_keys: [nfe],
          xml: { sha256: sha(xml), size_bytes: Buffer.byteLength(xml) },
        },
      });
      expect(d.id).toMatch(/^[0-9a-f-]{36}$/);
      cteId = d.id;
    });

    it('is visible through GET /fiscal/cte/{cte_uuid} and GET /fiscal/cte', async () => {
      const one = await c.call('GET', `/v1/fiscal/cte/${cteId}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({
        environment: 'homologacao',
        data: { id: cteId, access_key: own.chave, situacao: 'autorizado', service_type: 0 },
      });
      expect(one.body.data.documento.emitente.endereco).toMatchObject({ municipio: 'SAO PAULO' });
      const list = await c.call('GET', '/v1/fiscal/cte');
      expect(list.body.meta.total).toBe(1);
      expect(list.body.data[0]).toMatchObject({ id: cteId, access_key: own.chave });
      expect(list.body.data[0].documento.emitente).not.toHaveProperty('endereco');
    });

    it('opens a service record, a delivery to confirm and a receivable from the taker', async () => {
      const q = (table: string) => app.db.pool.query(`SELECT * FROM rm.${table} WHERE cte_id = $1`, [cteId]);
      expect((await q('servicos')).rows).toEqual([
        expect.objectContaining({
          company_id: c.companyId,
          chave: own.chave,
          tomador_documento: tomador.cnpj,
          valor_centavos: '199999',
          status: 'registrado',
          inicio_municipio: 'CAMPINAS',
          fim_municipio: 'RIO DE JANEIRO',
        }),
      ]);
      expect((await q('entregas')).rows).toEqual([
        expect.objectContaining({
          company_id: c.companyId,
          destinatario_nome: 'DESTINATARIO COMERCIO SA',
          municipio: 'RIO DE JANEIRO',
          uf: 'RJ',
          status: 'a_confirmar',
          confirmada_em: null,
        }),
      ]);
      expect((await q('recebiveis')).rows).toEqual([
        expect.objectContaining({
          company_id: c.companyId,
          devedor_documento: tomador.cnpj,
          devedor_papel: 'outros',
          valor_centavos: '180050',
          valor_prestacao_centavos: '199999',
          status: 'em_aberto',
        }),
      ]);
    });

    it('200 with first_reception false on a resubmission; nothing reprocessed', async () => {
      const res = await c.call('POST', route, { xml: Buffer.from(xml).toString('base64') });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        first_reception: false,
        id: cteId,
        received_count: 2,
        documento: { xml: { sha256: sha(xml) } },
      });
      const changed = xml.replace('GERADO EM TESTE', 'OUTRO TEXTO');
      const res2 = await c.call('POST', route, { xml: changed });
      expect(res2.status).toBe(200);
      expect(res2.body.data).toMatchObject({ first_reception: false, received_count: 3, documento: { xml: { sha256: sha(xml) } } });
      for (const table of ['servicos', 'entregas', 'recebiveis']) {
        const n = await app.db.pool.query(`SELECT count(*)::int AS n FROM rm.${table} WHERE company_id = $1`, [c.companyId]);
        expect(n.rows[0].n).toBe(1);
      }
      const events = await app.running.platform.store.readStream(`cte-${cteId}`);
      expect(events.map((e) => e.type)).toEqual(['cte.emitido_recebido', 'cte.emitido_reenviado', 'cte.emitido_reenviado']);
      expect(events.map((e) => (e.data as { conteudo_diferente?: boolean }).conteudo_diferente)).toEqual([undefined, false, true]);
    });

    it('GET /fiscal/cte/{cte_uuid}/xml gives the cteProc byte for byte', async () => {
      const res = await fetch(`${app.url}/v1/fiscal/cte/${cteId}/xml`, { headers: { authorization: `Bearer ${c.apiKey}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(xml));
    });

    it('another company: 404 on the CT-e and its XML; malformed ids are 404 too', async () => {
      expectError(await other.call('GET', `/v1/fiscal/cte/${cteId}`), 404, 'nao_encontrado');
      expectError(await other.call('GET', `/v1/fiscal/cte/${cteId}/xml`), 404, 'nao_encontrado');
      expect((await other.call('GET', '/v1/fiscal/cte')).body.meta.total).toBe(0);
      expectError(await c.call('GET', '/v1/fiscal/cte/nao-e-uuid'), 404, 'nao_encontrado');
      expectError(await c.call('GET', '/v1/fiscal/cte/00000000-0000-4000-8000-000000000000'), 404, 'nao_encontrado');
    });
  });

  it('multipart `arquivo`; a bare CTe is own but sem_protocolo, and has no authorized XML to download', async () => {
    const bare = buildCteXml({ emitenteCnpj: c.cnpj, protocolo: false });
    const form = new FormData();
    form.append('arquivo', new Blob([bare.xml]), 'cte.xml');
    const res = await c.call('POST', route, form);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ first_reception: true, situacao: 'sem_protocolo', documento: { protocol: null } });
    expectError(await c.call('GET', `/v1/fiscal/cte/${res.body.data.id}/xml`), 404, 'nao_encontrado');
    const filtered = await c.call('GET', '/v1/fiscal/cte?status=sem_protocolo');
    expect(filtered.body.data.map((d: { id: string }) => d.id)).toEqual([res.body.data.id]);
  });

  it('422 cte_de_outro_emitente points to the inbox; nothing enters the flow', async () => {
    const theirs = buildCteXml({ emitenteCnpj: randomCnpj() });
    const body = expectError(await c.call('POST', route, { xml: theirs.xml }), 422, 'cte_de_outro_emitente');
    expect(body.error.message).toContain('/fiscal/cte-subcontratacao');
    const n = await app.db.pool.query('SELECT count(*)::int AS n FROM rm.ctes WHERE chave = $1', [theirs.chave]);
    expect(n.rows[0].n).toBe(0);
  });

  it('422 ambiente_divergente for a production CT-e in the sandbox; 422 cte_nao_autorizado for a denied one', async () => {
    expectError(await c.call('POST', route, { xml: buildCteXml({ emitenteCnpj: c.cnpj, tpAmb: 1 }).xml }), 422, 'ambiente_divergente');
    expectError(await c.call('POST', route, { xml: buildCteXml({ emitenteCnpj: c.cnpj, cStat: 110 }).xml }), 422, 'cte_nao_autorizado');
  });

  it("the reader's refusals apply here too", async () => {
    expectError(await c.call('POST', route, { xml: '<!DOCTYPE x><CTe/>' }), 400, 'xml_hostil');
    expectError(await c.call('POST', route, { xml: '<CTe>' }), 400, 'xml_malformado');
    expectError(await c.call('POST', route, {}), 400, 'validacao');
    expectError(await c.call('POST', route, { xml: '<?xml version="1.0"?><NFe/>' }), 422, 'documento_nao_e_cte');
  });

  it('list filters: status, issue dates, pagination', async () => {
    const all = await c.call('GET', '/v1/fiscal/cte?per_page=1');
    expect(all.body.meta).toEqual({ page: 1, per_page: 1, total: 2, next_cursor: expect.any(String) });
    expect((await c.call('GET', '/v1/fiscal/cte?status=autorizado')).body.meta.total).toBe(1);
    // The generated CT-e are issued on 2026-11-20 (Brasília).
    expect((await c.call('GET', '/v1/fiscal/cte?from=2026-11-20&to=2026-11-20')).body.meta.total).toBe(2);
    expect((await c.call('GET', '/v1/fiscal/cte?from=2026-11-21')).body.meta.total).toBe(0);
    expectError(await c.call('GET', '/v1/fiscal/cte?status=inventado'), 400, 'validacao');
    expectError(await c.call('GET', '/v1/fiscal/cte?from=2026-11-21&to=2026-11-20'), 400, 'validacao');
  });
});
