import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp, expectError, randomCnpj, request, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml, nfeKey } from '../support/cte-xml';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const sample = (name: string) => readFileSync(path.join(__dirname, '..', 'fixtures', 'cte', name));

/** Multipart upload of an XML file in part `arquivo`. */
const multipart = (c: TestCarrier, route: string, bytes: Buffer, part = 'arquivo') => {
  const form = new FormData();
  form.append(part, new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type: 'application/xml' }), 'cte.xml');
  return c.call('POST', route, form);
};

/** The archived XML as bytes (fetch's text() would decode it). */
async function xmlBytes(app: TestApp, c: TestCarrier, route: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(app.url + route, { headers: { authorization: `Bearer ${c.apiKey}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('/fiscal/cte-subcontratacao (inbox)', () => {
  let app: TestApp;
  let sub: TestCarrier;
  let other: TestCarrier;
  const contractorCnpj = randomCnpj();

  beforeAll(async () => {
    app = await startTestApp();
    sub = await app.carrier({ name: 'SUBCONTRATADA TRANSPORTES LTDA' });
    other = await app.carrier({ name: 'OUTRA TRANSPORTADORA LTDA' });
  });
  afterAll(() => app?.close());

  describe('receipt', () => {
    const first = buildCteXml({
      emitenteCnpj: contractorCnpj,
      emitenteNome: 'CONTRATANTE ÁGIL TRANSPORTES SA',
      nfeChaves: [nfeKey()],
      vTPrest: '2345.67',
      vRec: '2300.00',
    });

    it("201 on the first receipt (JSON raw XML), with what the XML says and the parties' addresses", async () => {
      const res = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: first.xml });
      expect(res.status).toBe(201);
      expect(res.body.environment).toBe('homologacao');
      const d = res.body.data;
      expect(d).toMatchObject({
        access_key: first.chave,
        status: 'recebido',
        carrier_role: 'terceiro',
        allows_counter_cte: true,
        counter_cte_blocked_reason: null,
        received_count: 1,
        content_updated: false,
        model: '57',
        layout_version: '4.00',
        document_environment: 'homologacao',
        service_type: 0,
        service_value: 2345.67,
        amount_receivable: 2300,
        emitente: { documento: contractorCnpj, nome: 'CONTRATANTE ÁGIL TRANSPORTES SA', endereco: { municipio: 'SAO PAULO', uf: 'SP' } },
        tomador: { papel: 'remetente', codigo: 0, parte: { documento: '11222333000181' } },
        inicio: { codigo_ibge: '3509502', municipio: 'CAMPINAS', uf: 'SP' },
        fim: { codigo_ibge: '3304557', municipio: 'RIO DE JANEIRO', uf: 'RJ' },
        protocol: { cstat: 100 },
        delivered_by: null,
        xml: { sha256: sha(first.xml), size_bytes: Buffer.byteLength(first.xml) },
      });
      expect(d.nfe_keys).toHaveLength(1);
      expect(d.destinatario.endereco).toMatchObject({ logradouro: 'RUA DAS FLORES', cep: '01001000' });
    });

    it('200 on a resubmission (base64 this time): same resource, received_count incremented, content not updated', async () => {
      const res = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: Buffer.from(first.xml).toString('base64') });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ access_key: first.chave, received_count: 2, content_updated: false });
    });

    it('a different XML for the same key replaces the archived one: content_updated true, history in the event log', async () => {
      const second = first.xml.replace('GERADO EM TESTE', 'VERSAO CORRIGIDA');
      const res = await multipart(sub, '/v1/fiscal/cte-subcontratacao', Buffer.from(second));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ received_count: 3, content_updated: true, xml: { sha256: sha(second) } });
      const got = await xmlBytes(app, sub, `/v1/fiscal/cte-subcontratacao/${first.chave}/xml`);
      expect(got.status).toBe(200);
      expect(got.type).toMatch(/^application\/xml/);
      expect(sha(got.bytes)).toBe(sha(second));

      const again = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: second });
      expect(again.body.data).toMatchObject({ received_count: 4, content_updated: false });

      const events = await app.running.platform.store.readStream(`cte_subcontratacao-${sub.companyId}-${first.chave}`);
      expect(events.map((e) => [e.type, (e.data as { sha256: string }).sha256])).toEqual([
        ['cte_subcontratacao.recebido', sha(first.xml)],
        ['cte_subcontratacao.reenviado', sha(first.xml)],
        ['cte_subcontratacao.substituido', sha(second)],
        ['cte_subcontratacao.reenviado', sha(second)],
      ]);
      expect((events[2]!.data as { sha256_anterior: string }).sha256_anterior).toBe(sha(first.xml));
      // Every version stays retrievable by the hash its event names.
      expect((await app.running.platform.documents.get(sha(first.xml)))?.content.toString()).toBe(first.xml);
    });

    it('keeps an ISO-8859-1 file byte for byte and reads its accents', async () => {
      const cte = buildCteXml({ emitenteCnpj: contractorCnpj, emitenteNome: 'TRANSPORTES SÃO JOÃO LTDA' });
      const latin1 = Buffer.from(cte.xml.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'), 'latin1');
      const res = await multipart(sub, '/v1/fiscal/cte-subcontratacao', latin1);
      expect(res.status).toBe(201);
      expect(res.body.data.emitente.nome).toBe('TRANSPORTES SÃO JOÃO LTDA');
      const got = await xmlBytes(app, sub, `/v1/fiscal/cte-subcontratacao/${cte.chave}/xml`);
      expect(got.bytes.equals(latin1)).toBe(true);
    });

    it('reads public samples (layout 3.00) and keeps them byte for byte', async () => {
      const bytes = sample('24210231626841000132570010000007811746401259.xml');
      const res = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: bytes.toString('base64') });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        access_key: '24210231626841000132570010000007811746401259',
        layout_version: '3.00',
        document_environment: 'producao',
        number: 781,
        series: 1,
        emitente: { documento: '31626841000132' },
        carrier_role: 'terceiro',
        allows_counter_cte: true,
      });
      const got = await xmlBytes(app, sub, '/v1/fiscal/cte-subcontratacao/24210231626841000132570010000007811746401259/xml');
      expect(sha(got.bytes)).toBe(sha(bytes));

      const hom = await multipart(sub, '/v1/fiscal/cte-subcontratacao', sample('cte_hom_sem_prot.xml'));
      expect(hom.status).toBe(201);
      expect(hom.body.data).toMatchObject({ protocol: null, document_environment: 'homologacao' });
    });
  });

  describe('carrier_role and allows_counter_cte', () => {
    it('own CT-e: emitente, no counter-CT-e (cte_proprio), still received', async () => {
      const own = buildCteXml({ emitenteCnpj: sub.cnpj });
      const res = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: own.xml });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        carrier_role: 'emitente',
        allows_counter_cte: false,
        counter_cte_blocked_reason: 'cte_proprio',
      });
    });

    it('CT-e linked to multimodal (tpServ 4): no counter-CT-e', async () => {
      const mm = buildCteXml({ emitenteCnpj: contractorCnpj, tpServ: 4 });
      const res = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: mm.xml });
      expect(res.body.data).toMatchObject({
        service_type: 4,
        allows_counter_cte: false,
        counter_cte_blocked_reason: 'vinculado_multimodal',
      });
    });

    it('the company as taker in toma4, and as recipient', async () => {
      const toma4 = buildCteXml({
        emitenteCnpj: contractorCnpj,
        toma: 4,
        tomador4: { cnpj: sub.cnpj, nome: 'SUBCONTRATADA TRANSPORTES LTDA' },
      });
      const res = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: toma4.xml });
      expect(res.body.data).toMatchObject({
        carrier_role: 'tomador',
        tomador: { papel: 'outros', codigo: 4, parte: { documento: sub.cnpj } },
      });
      const dest = buildCteXml({ emitenteCnpj: contractorCnpj, destinatario: { cnpj: sub.cnpj, nome: 'SUB' } });
      const res2 = await sub.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: dest.xml });
      expect(res2.body.data).toMatchObject({ carrier_role: 'destinatario', allows_counter_cte: true });
    });
  });

  describe('refusals', () => {
    const route = '/v1/fiscal/cte-subcontratacao';
    const valid = () => buildCteXml({ emitenteCnpj: contractorCnpj }).xml;

    it('400 xml_hostil: DOCTYPE, entity expansion, absurd nesting', async () => {
      const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><CTe>&lol2;</CTe>`;
      expectError(await sub.call('POST', route, { xml: laughs }), 400, 'xml_hostil');
      const external = valid().replace('<CTe ', '<!DOCTYPE CTe SYSTEM "file:///etc/passwd"><CTe ');
      expectError(await sub.call('POST', route, { xml: external }), 400, 'xml_hostil');
      const deep = `<CTe>${'<a>'.repeat(200)}${'</a>'.repeat(200)}</CTe>`;
      expectError(await sub.call('POST', route, { xml: deep }), 400, 'xml_hostil');
    });

    it('400 xml_malformado, 400 validacao for what is neither XML nor base64 or a missing field', async () => {
      expectError(await sub.call('POST', route, { xml: '<CTe><infCte></CTe>' }), 400, 'xml_malformado');
      const notXml = expectError(await sub.call('POST', route, { xml: 'não é xml!' }), 400, 'validacao');
      expect(notXml.error.details.fields[0].field).toBe('xml');
      expectError(await sub.call('POST', route, { xml: Buffer.from('just text').toString('base64') }), 400, 'validacao');
      expectError(await sub.call('POST', route, {}), 400, 'validacao');
      expectError(await sub.call('POST', route, { xml: 12 }), 400, 'validacao');
      const form = new FormData();
      form.append('outro', new Blob([valid()]), 'x.xml');
      expectError(await sub.call('POST', route, form), 400, 'validacao');
    });

    it('422 documento_nao_e_cte, layout_nao_suportado, chave_invalida', async () => {
      expectError(await sub.call('POST', route, { xml: '<?xml version="1.0"?><nfeProc><NFe/></nfeProc>' }), 422, 'documento_nao_e_cte');
      expectError(
        await sub.call('POST', route, { xml: buildCteXml({ emitenteCnpj: contractorCnpj, versao: '2.00' }).xml }),
        422,
        'layout_nao_suportado',
      );
      const cte = buildCteXml({ emitenteCnpj: contractorCnpj });
      const wrongDigit = cte.chave.slice(0, 43) + ((Number(cte.chave[43]) + 1) % 10);
      const bad = expectError(
        await sub.call('POST', route, { xml: cte.xml.replace(`CTe${cte.chave}`, `CTe${wrongDigit}`) }),
        422,
        'chave_invalida',
      );
      expect(bad.error.message).toContain(wrongDigit);
    });

    it('size limits: `xml` over 2097152 characters is 400, a bigger body 413, a file over 2 MB 413; other media 415', async () => {
      const padded = valid().replace('GERADO EM TESTE', 'X'.repeat(2 * 1024 * 1024));
      expectError(await sub.call('POST', route, { xml: padded }), 400, 'validacao');
      expectError(await sub.call('POST', route, { xml: padded + 'Y'.repeat(1024 * 1024) }), 413, 'payload_muito_grande');
      expectError(await multipart(sub, route, Buffer.from(padded)), 413, 'payload_muito_grande');
      expectError(await sub.call('POST', route, valid(), { 'content-type': 'text/xml' }), 415, 'tipo_de_midia_nao_suportado');
    });

    it('nothing is archived for a refused document', async () => {
      const before = await app.db.pool.query('SELECT count(*)::int AS n FROM documents');
      await sub.call('POST', route, { xml: '<CTe><infCte></CTe>' });
      await sub.call('POST', route, { xml: '<?xml version="1.0"?><!DOCTYPE x><CTe/>' });
      const after = await app.db.pool.query('SELECT count(*)::int AS n FROM documents');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    });
  });

  describe('list and reads', () => {
    let listed: TestCarrier;
    const issuerA = randomCnpj();
    const issuerB = randomCnpj();
    const keys: string[] = [];

    beforeAll(async () => {
      listed = await app.carrier({ name: 'LISTAGEM TRANSPORTES LTDA' });
      for (const [cnpj, nome] of [
        [issuerA, 'EXPRESSO ARAÇATUBA LTDA'],
        [issuerA, 'EXPRESSO ARAÇATUBA LTDA'],
        [issuerB, 'RODOVIÁRIO BETA SA'],
      ] as const) {
        const cte = buildCteXml({ emitenteCnpj: cnpj, emitenteNome: nome });
        const res = await listed.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: cte.xml });
        expect(res.status).toBe(201);
        keys.push(cte.chave);
      }
      await listed.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: buildCteXml({ emitenteCnpj: listed.cnpj }).xml });
    });

    const list = (q: string) => listed.call('GET', `/v1/fiscal/cte-subcontratacao${q}`);

    it('lists newest receipt first with ruling 9 pagination, parties without addresses', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 4, next_cursor: null });
      expect(res.body.environment).toBe('homologacao');
      expect(res.body.data[3].access_key).toBe(keys[0]);
      expect(res.body.data[0].emitente).not.toHaveProperty('endereco');
      const page2 = await list('?per_page=3&page=2');
      expect(page2.body.meta).toEqual({ page: 2, per_page: 3, total: 4, next_cursor: null });
      expect(page2.body.data.map((d: { access_key: string }) => d.access_key)).toEqual([keys[0]]);
    });

    it('search by access key, issuer CNPJ (masked or not) and corporate name (no case, no accents)', async () => {
      expect((await list(`?search=${keys[2]}`)).body.data.map((d: { access_key: string }) => d.access_key)).toEqual([keys[2]]);
      const masked = `${issuerA.slice(0, 2)}.${issuerA.slice(2, 5)}.${issuerA.slice(5, 8)}/${issuerA.slice(8, 12)}-${issuerA.slice(12)}`;
      expect((await list(`?search=${encodeURIComponent(masked)}`)).body.meta.total).toBe(2);
      expect((await list(`?search=${issuerB}`)).body.meta.total).toBe(1);
      expect((await list('?search=aracatuba')).body.meta.total).toBe(2);
      expect((await list(`?search=${encodeURIComponent('rodoviário')}`)).body.meta.total).toBe(1);
      expect((await list('?search=nada-disso')).body.meta.total).toBe(0);
      // LIKE's wildcards are searched for literally, not as "anything".
      for (const wildcard of ['%', '_', '%25', '\\', '3%', '_5']) {
        expect({ wildcard, total: (await list(`?search=${encodeURIComponent(wildcard)}`)).body.meta.total }).toEqual({
          wildcard,
          total: 0,
        });
      }
    });

    it('filters by carrier_role, status and receipt dates', async () => {
      expect((await list('?carrier_role=emitente')).body.meta.total).toBe(1);
      expect((await list('?carrier_role=terceiro')).body.meta.total).toBe(3);
      expect((await list('?status=recebido')).body.meta.total).toBe(4);
      expect((await list('?status=subcontratado')).body.meta.total).toBe(0);
      const today = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
      const tomorrow = new Date(Date.now() + 21 * 3600_000).toISOString().slice(0, 10);
      expect((await list(`?from=${today}&to=${today}`)).body.meta.total).toBe(4);
      expect((await list(`?from=${tomorrow}`)).body.meta.total).toBe(0);
      expect((await list('?to=2020-01-01')).body.meta.total).toBe(0);
    });

    it('400 validacao for bad filters and pagination', async () => {
      expectError(await list('?carrier_role=chefe'), 400, 'validacao');
      expectError(await list('?status=perdido'), 400, 'validacao');
      expectError(await list('?from=ontem'), 400, 'validacao');
      expectError(await list('?from=2026-02-10&to=2026-02-01'), 400, 'validacao');
      expectError(await list('?per_page=101'), 400, 'validacao');
      expectError(await list('?page=0'), 400, 'validacao');
    });

    it('another company sees none of it: 404 on the document and its XML, empty list', async () => {
      expectError(await other.call('GET', `/v1/fiscal/cte-subcontratacao/${keys[0]}`), 404, 'nao_encontrado');
      expectError(await other.call('GET', `/v1/fiscal/cte-subcontratacao/${keys[0]}/xml`), 404, 'nao_encontrado');
      expect((await other.call('GET', `/v1/fiscal/cte-subcontratacao?search=${keys[0]}`)).body.meta.total).toBe(0);
      expectError(await listed.call('GET', '/v1/fiscal/cte-subcontratacao/123'), 404, 'nao_encontrado');
      const unknown = buildCteXml({ emitenteCnpj: issuerA }).chave;
      expectError(await listed.call('GET', `/v1/fiscal/cte-subcontratacao/${unknown}`), 404, 'nao_encontrado');
    });

    it('503 xml_indisponivel when the archive cannot be read; the read works again once it can', async () => {
      const row = await app.db.pool.query('SELECT xml_sha256 FROM rm.cte_subcontratacao WHERE company_id = $1 AND chave = $2', [
        listed.companyId,
        keys[1],
      ]);
      const hash = row.rows[0].xml_sha256;
      const saved = await app.db.pool.query('SELECT content, content_type, size_bytes FROM documents WHERE sha256 = $1', [hash]);
      await app.db.pool.query('DELETE FROM documents WHERE sha256 = $1', [hash]);
      expectError(await listed.call('GET', `/v1/fiscal/cte-subcontratacao/${keys[1]}/xml`), 503, 'xml_indisponivel');
      const { content, content_type, size_bytes } = saved.rows[0];
      await app.db.pool.query('INSERT INTO documents (sha256, content, content_type, size_bytes) VALUES ($1, $2, $3, $4)', [
        hash,
        content,
        content_type,
        size_bytes,
      ]);
      expect((await xmlBytes(app, listed, `/v1/fiscal/cte-subcontratacao/${keys[1]}/xml`)).status).toBe(200);
    });
  });

  it('401 without a credential', async () => {
    expectError(await request(`${app.url}/v1/fiscal/cte-subcontratacao`, 'GET'), 401, 'nao_autenticado');
  });
});
