import { createHash } from 'node:crypto';
import { startTestApp, expectError, request, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { buildCteXml } from '../support/cte-xml';
import { danfePdf, nfeKey, nfeSample, zipOf } from '../support/nfe-files';

interface Upload {
  name: string;
  content: Buffer | string;
  type?: string;
}

const form = (files: Upload[], part = 'arquivos[]') => {
  const f = new FormData();
  for (const file of files)
    f.append(
      part,
      new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], {
        type: file.type ?? 'application/octet-stream',
      }),
      file.name,
    );
  return f;
};
const importar = (c: TestCarrier, files: Upload[], part?: string) => c.call('POST', '/v1/fiscal/nfe/importacoes', form(files, part));
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A bare `NFe` cut out of an `nfeProc`, as issuers' systems often send it. */
const bareNfe = (proc: Buffer) => {
  const s = proc.toString('utf8');
  return Buffer.from('<?xml version="1.0" encoding="UTF-8"?>' + s.slice(s.indexOf('<NFe'), s.indexOf('</NFe>') + 6), 'utf8');
};

const S_HML = '41170706117473000150550010000463202612756525-procNFe.xml';
const K_HML = '41170706117473000150550010000463202612756525';
const S_MED = '26180875335849000115550010000016871192213331-nfe.xml';
const K_MED = '26180875335849000115550010000016871192213331';
const S_A = '35180834128745000152550010000474281920007498-nfe.xml';
const K_A = '35180834128745000152550010000474281920007498';
const S_B = '35180834128745000152550010000476121675985748-nfe.xml';
const K_B = '35180834128745000152550010000476121675985748';
const S_C = '35180834128745000152550010000476781421693968-nfe.xml';
const K_C = '35180834128745000152550010000476781421693968';
const S_ABROAD = '42210775277525000178550030000266631762885493-procNFe.xml';
const K_ABROAD = '42210775277525000178550030000266631762885493';
const CTE_XML = () => Buffer.from(buildCteXml({ emitenteCnpj: '11222333000181' }).xml);

const outcomes = (res: ApiResponse) =>
  res.body.data.arquivos.flatMap((a: { nfes: { access_key: string; resultado: string; entrada: string | null }[] }) =>
    a.nfes.map((n) => `${n.entrada ?? ''}${n.entrada ? ' ' : ''}${n.access_key}: ${n.resultado}`),
  );
const fileErrors = (body: { arquivos: { arquivo: string; erros: { entrada: string | null; code: string }[] }[] }) =>
  body.arquivos.flatMap((a) => a.erros.map((e) => `${a.arquivo}${e.entrada ? `/${e.entrada}` : ''}: ${e.code}`));

describe('/fiscal/nfe', () => {
  let app: TestApp;
  let c: TestCarrier;
  let other: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ name: 'TRANSPORTES NFE LTDA' });
    other = await app.carrier({ name: 'OUTRA TRANSPORTADORA LTDA' });
  });
  afterAll(() => app?.close());

  describe('import', () => {
    it('imports an nfeProc XML and keeps it byte for byte', async () => {
      const xml = nfeSample(S_HML);
      const res = await importar(c, [{ name: 'nota.xml', content: xml, type: 'text/xml' }]);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        data: {
          arquivos: [{ arquivo: 'nota.xml', tipo: 'xml', nfes: [{ access_key: K_HML, resultado: 'importada', entrada: null }], erros: [] }],
          total_nfes: 1,
          total_erros: 0,
        },
        environment: 'homologacao',
      });
      const get = await c.call('GET', `/v1/fiscal/nfe/${K_HML}`);
      expect(get.status).toBe(200);
      expect(get.body).toMatchObject({
        environment: 'homologacao',
        data: {
          access_key: K_HML,
          status: 'importada',
          modelo: '55',
          serie: 1,
          numero: 46320,
          data_emissao: '2017-07-12T09:45:50-03:00',
          ambiente: 'homologacao',
          emitente: {
            documento: '06117473000150',
            tipo_documento: 'CNPJ',
            nome: 'UNIMAKE SOLUCOES CORPORATIVAS LTDA',
            uf: 'PR',
            municipio: 'PARANAVAI',
          },
          destinatario: { documento: '27373722000148', tipo_documento: 'CNPJ', uf: 'SP', municipio: 'CATANDUVA' },
          valor_total: 84.9,
          xml_disponivel: true,
          recebimentos: 1,
          natureza_operacao: 'VENDA PRODUC.DO ESTABELEC',
          tipo_operacao: 'saida',
          modalidade_frete: 0,
          protocolo: { numero: '141170000487910', status: 100, motivo: 'Autorizado o uso da NF-e' },
          arquivos: { xml: { nome: 'nota.xml', zip: null, sha256: sha256(xml) }, pdf: null },
          ctes_vinculados: [],
        },
      });
      const archived = await app.running.platform.documents.get(sha256(xml));
      expect(archived?.content.equals(xml)).toBe(true);
      expect(archived?.contentType).toBe('application/xml');
    });

    it('tells the kind from the bytes, not the name; a bare NFe, then its nfeProc updates it, then nothing goes back', async () => {
      const proc = nfeSample(S_MED);
      const bare = bareNfe(proc);
      const first = await importar(c, [{ name: 'nota.pdf', content: bare }]);
      expect(first.status).toBe(201);
      expect(first.body.data.arquivos[0].tipo).toBe('xml');
      expect(outcomes(first)).toEqual([`${K_MED}: importada`]);
      expect((await c.call('GET', `/v1/fiscal/nfe/${K_MED}`)).body.data.protocolo).toBeNull();

      expect(outcomes(await importar(c, [{ name: 'proc.xml', content: proc }]))).toEqual([`${K_MED}: atualizada`]);
      expect(outcomes(await importar(c, [{ name: 'again.xml', content: bare }]))).toEqual([`${K_MED}: ja_importada`]);
      expect(outcomes(await importar(c, [{ name: 'proc.xml', content: proc }]))).toEqual([`${K_MED}: ja_importada`]);
      const get = await c.call('GET', `/v1/fiscal/nfe/${K_MED}`);
      expect(get.body.data).toMatchObject({
        recebimentos: 4,
        protocolo: { numero: '126180042806970' },
        arquivos: { xml: { nome: 'proc.xml', sha256: sha256(proc) } },
        valor_total: 5780,
        transportador: { documento: '02012862002707', nome: 'LATAM LINHAS AEREAS S/A', uf: 'PE', municipio: 'Recife' },
        carga: { volumes: 1, peso_bruto_kg: null },
      });
      // both versions stay archived: each receipt names the bytes it brought
      expect((await app.running.platform.documents.get(sha256(bare)))?.content.equals(bare)).toBe(true);
    });

    it('a PDF yields the NF-e whose key it prints; the XML completes it', async () => {
      const pdf = await danfePdf([{ key: K_A }]);
      const res = await importar(c, [{ name: 'danfe.pdf', content: pdf, type: 'application/pdf' }]);
      expect(res.status).toBe(201);
      expect(res.body.data.arquivos[0]).toEqual({
        arquivo: 'danfe.pdf',
        tipo: 'pdf',
        nfes: [{ access_key: K_A, resultado: 'somente_chave', entrada: null }],
        erros: [],
      });
      const keyOnly = await c.call('GET', `/v1/fiscal/nfe/${K_A}`);
      expect(keyOnly.body.data).toMatchObject({
        status: 'somente_chave',
        xml_disponivel: false,
        modelo: '55',
        serie: 1,
        numero: 47428,
        emitente: { documento: '34128745000152', uf: 'SP', nome: null },
        destinatario: null,
        valor_total: null,
        data_emissao: null,
        protocolo: null,
        arquivos: { xml: null, pdf: { nome: 'danfe.pdf', zip: null, sha256: sha256(pdf) } },
      });
      expect((await app.running.platform.documents.get(sha256(pdf)))?.content.equals(pdf)).toBe(true);

      const again = await importar(c, [{ name: 'danfe.pdf', content: pdf }]);
      expect(outcomes(again)).toEqual([`${K_A}: ja_importada`]);

      const xml = nfeSample(S_A);
      expect(outcomes(await importar(c, [{ name: 'a.xml', content: xml }]))).toEqual([`${K_A}: completada`]);
      const full = await c.call('GET', `/v1/fiscal/nfe/${K_A}`);
      expect(full.body.data).toMatchObject({
        status: 'importada',
        xml_disponivel: true,
        valor_total: 347.28,
        emitente: { documento: '34128745000152', nome: 'Alimentos Ltda.' },
        destinatario: { documento: '68161525650', tipo_documento: 'CPF', nome: 'FULANO DOS SANTOS' },
        carga: { volumes: 1, peso_liquido_kg: 6.97, peso_bruto_kg: 6.97 },
        recebimentos: 3,
        importada_em: keyOnly.body.data.importada_em,
        arquivos: { xml: { sha256: sha256(xml) }, pdf: { sha256: sha256(pdf) } },
      });
      expect(outcomes(await importar(c, [{ name: 'danfe.pdf', content: pdf }]))).toEqual([`${K_A}: ja_importada`]);
    });

    it("a PDF with several DANFEs yields each page's own key", async () => {
      const k1 = nfeKey({ numero: 901 });
      const k2 = nfeKey({ numero: 902 });
      const pdf = await danfePdf([{ key: k1, extra: `NF-e referenciada ${K_HML}` }, { key: k2 }, { key: k1 }]);
      const res = await importar(c, [{ name: 'lote.pdf', content: pdf }]);
      expect(outcomes(res)).toEqual([`${k1}: somente_chave`, `${k2}: somente_chave`]);
    });

    it('refuses, per file, PDFs without a key, of another document, or unreadable', async () => {
      const cte = buildCteXml({ emitenteCnpj: '11222333000181' }).chave;
      const res = await importar(c, [
        { name: 'sem-chave.pdf', content: await danfePdf([{ key: null }]) },
        { name: 'dacte.pdf', content: await danfePdf([{ key: cte }]) },
        { name: 'quebrado.pdf', content: Buffer.from('%PDF-1.7\nthis is not a PDF at all') },
        { name: 'ok.xml', content: nfeSample(S_ABROAD) },
      ]);
      expect(res.status).toBe(201);
      expect(fileErrors(res.body.data)).toEqual([
        'sem-chave.pdf: pdf_sem_chave',
        'dacte.pdf: documento_nao_e_nfe',
        'quebrado.pdf: pdf_ilegivel',
      ]);
      expect(outcomes(res)).toEqual([`${K_ABROAD}: importada`]);
      expect(res.body.data).toMatchObject({ total_nfes: 1, total_erros: 3 });
    });

    it('refuses, per file, XML that is hostile, malformed, not an NF-e, of another layout or with a bad key', async () => {
      const hml = nfeSample(S_HML).toString('utf8');
      const res = await importar(c, [
        { name: 'hostil.xml', content: '<?xml version="1.0"?><!DOCTYPE NFe [<!ENTITY x "boom">]><NFe>&x;</NFe>' },
        { name: 'malformado.xml', content: '<nfeProc><NFe></nfeProc>' },
        { name: 'cte.xml', content: CTE_XML() },
        {
          name: 'layout.xml',
          content: hml
            .replace('versao="4.00">', 'versao="3.10">')
            .replace(`Id="NFe${K_HML}" versao="4.00"`, `Id="NFe${K_HML}" versao="3.10"`),
        },
        { name: 'chave.xml', content: hml.replace(`NFe${K_HML}`, `NFe${K_HML.slice(0, 43)}9`) },
        { name: 'texto.txt', content: 'just some text' },
        { name: 'latin1.xml', content: Buffer.from([0x3c, 0x61, 0x3e, 0xe9, 0x3c, 0x2f, 0x61, 0x3e]) },
        { name: 'ok.xml', content: nfeSample(S_HML) },
      ]);
      expect(res.status).toBe(201);
      expect(fileErrors(res.body.data)).toEqual([
        'hostil.xml: xml_hostil',
        'malformado.xml: xml_malformado',
        'cte.xml: documento_nao_e_nfe',
        'layout.xml: layout_nao_suportado',
        'chave.xml: chave_invalida',
        'texto.txt: arquivo_nao_suportado',
        'latin1.xml: xml_malformado',
      ]);
      expect(res.body.data.arquivos.map((a: { tipo: string }) => a.tipo)).toEqual([
        'xml',
        'xml',
        'xml',
        'xml',
        'xml',
        'desconhecido',
        'xml',
        'xml',
      ]);
      for (const a of res.body.data.arquivos.slice(0, 7)) expect(a.erros[0].message).toEqual(expect.any(String));
    });

    it('opens a ZIP safely: every XML and PDF inside, entries refused one by one', async () => {
      const inner = await zipOf([{ name: 'c.xml', content: nfeSample(S_C) }]);
      const zip = await zipOf([
        { name: 'notas/', content: Buffer.alloc(0) },
        { name: 'notas/b.xml', content: nfeSample(S_B) },
        { name: 'notas/c.xml', content: nfeSample(S_C), compress: false },
        { name: '__MACOSX/notas/._b.xml', content: Buffer.from('resource fork') },
        { name: 'danfe.pdf', content: await danfePdf([{ key: nfeKey({ numero: 777 }) }]) },
        { name: 'bomba.xml', content: Buffer.alloc(9 * 1024 * 1024, 0x20) },
        { name: 'grande.xml', content: Buffer.alloc(11 * 1024 * 1024, 0x20) },
        { name: 'interno.zip', content: inner },
        { name: 'leia-me.txt', content: Buffer.from('notas do mes') },
      ]);
      const res = await importar(c, [{ name: 'lote.zip', content: zip, type: 'application/zip' }]);
      expect(res.status).toBe(201);
      expect(res.body.data.arquivos[0].tipo).toBe('zip');
      expect(outcomes(res)).toEqual([
        `notas/b.xml ${K_B}: importada`,
        `notas/c.xml ${K_C}: importada`,
        `danfe.pdf ${nfeKey({ numero: 777 })}: somente_chave`,
      ]);
      expect(fileErrors(res.body.data)).toEqual([
        'lote.zip/bomba.xml: zip_taxa_de_compressao',
        'lote.zip/grande.xml: zip_entrada_muito_grande',
        'lote.zip/interno.zip: zip_aninhado',
        'lote.zip/leia-me.txt: arquivo_nao_suportado',
      ]);
      const b = await c.call('GET', `/v1/fiscal/nfe/${K_B}`);
      expect(b.body.data.arquivos.xml).toEqual({ nome: 'notas/b.xml', zip: 'lote.zip', sha256: sha256(nfeSample(S_B)) });
      expect((await app.running.platform.documents.get(sha256(nfeSample(S_C))))?.content.equals(nfeSample(S_C))).toBe(true);
    });

    it('refuses a corrupt ZIP and one with too many entries, as a whole', async () => {
      const many = await zipOf(Array.from({ length: 1001 }, (_, i) => ({ name: `${i}.txt`, content: Buffer.from('x'), compress: false })));
      const res = await importar(c, [
        { name: 'corrompido.zip', content: Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 7)]) },
        { name: 'muitos.zip', content: many },
        { name: 'vazio.zip', content: await zipOf([]) },
        { name: 'ok.xml', content: nfeSample(S_HML) },
      ]);
      expect(res.status).toBe(201);
      expect(fileErrors(res.body.data)).toEqual([
        'corrompido.zip: zip_invalido',
        'muitos.zip: zip_limite_excedido',
        'vazio.zip: zip_invalido',
      ]);
    });

    it('422 nenhuma_nfe_importada when no file yields an NF-e, with the per-file results', async () => {
      const res = await importar(c, [
        { name: 'cte.xml', content: CTE_XML() },
        { name: 'x.txt', content: 'hello' },
        { name: 'z.zip', content: await zipOf([{ name: 'y.txt', content: Buffer.from('y') }]) },
      ]);
      const body = expectError(res, 422, 'nenhuma_nfe_importada');
      expect(fileErrors(body.error.details)).toEqual([
        'cte.xml: documento_nao_e_nfe',
        'x.txt: arquivo_nao_suportado',
        'z.zip/y.txt: arquivo_nao_suportado',
      ]);
      expect(body.error.details.arquivos.map((a: { tipo: string }) => a.tipo)).toEqual(['xml', 'desconhecido', 'zip']);
    });

    it('400 validacao for 21 files, no file, a part of another name or a text part; nothing is imported', async () => {
      const k = nfeKey({ numero: 555 });
      const pdf = await danfePdf([{ key: k }]);
      const files = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.pdf`, content: pdf }));
      const tooMany = expectError(await importar(c, files), 400, 'validacao');
      expect(tooMany.error.details.fields).toEqual([{ field: 'arquivos[]', message: expect.stringMatching(/20/) }]);
      expectError(await c.call('GET', `/v1/fiscal/nfe/${k}`), 404, 'nao_encontrado');

      const none = expectError(await c.call('POST', '/v1/fiscal/nfe/importacoes', new FormData()), 400, 'validacao');
      expect(none.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['arquivos[]']);

      const wrongName = expectError(await importar(c, [{ name: 'a.pdf', content: pdf }], 'arquivo'), 400, 'validacao');
      expect(wrongName.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['arquivo']);

      const text = new FormData();
      text.append('arquivos[]', 'not a file');
      const textPart = expectError(await c.call('POST', '/v1/fiscal/nfe/importacoes', text), 400, 'validacao');
      expect(textPart.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['arquivos[]']);
      expectError(await c.call('GET', `/v1/fiscal/nfe/${k}`), 404, 'nao_encontrado');
    });

    it('413 for a file over 10 MB; 415 when the body is not multipart', async () => {
      expectError(await importar(c, [{ name: 'big.xml', content: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20) }]), 413, 'payload_muito_grande');
      expectError(await c.call('POST', '/v1/fiscal/nfe/importacoes', { arquivos: [] }), 415, 'tipo_de_midia_nao_suportado');
    });
  });

  describe('list and search', () => {
    let searcher: TestCarrier;
    beforeAll(async () => {
      searcher = await app.carrier({ name: 'TRANSPORTES BUSCA LTDA' });
      const res = await importar(searcher, [
        { name: 'hml.xml', content: nfeSample(S_HML) },
        { name: 'med.xml', content: nfeSample(S_MED) },
        {
          name: 'lote.zip',
          content: await zipOf([
            { name: 'a.xml', content: nfeSample(S_A) },
            { name: 'b.xml', content: nfeSample(S_B) },
          ]),
        },
        { name: 'danfe.pdf', content: await danfePdf([{ key: K_C }]) },
      ]);
      expect(res.status).toBe(201);
    });
    const keys = (res: ApiResponse) => res.body.data.map((n: { access_key: string }) => n.access_key).sort();
    const search = async (term: string) => {
      const res = await searcher.call('GET', `/v1/fiscal/nfe?search=${encodeURIComponent(term)}`);
      expect(res.status).toBe(200);
      return keys(res);
    };

    it("lists the company's NF-e, most recent first, with the list envelope", async () => {
      const res = await searcher.call('GET', '/v1/fiscal/nfe');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 5, next_cursor: null });
      expect(res.body.environment).toBe('homologacao');
      expect(res.body.data[0].access_key).toBe(K_C);
      expect(res.body.data.find((n: { access_key: string }) => n.access_key === K_MED)).toMatchObject({
        status: 'importada',
        numero: 1687,
        emitente: { documento: '75335849000115', nome: 'Teste Produtos Médicos Ltda - ME' },
        destinatario: { documento: '37148260000119', nome: 'MEDICOS, HOSP, IMP. E EXP. LTDA' },
        valor_total: 5780,
        xml_disponivel: true,
      });
    });

    it('searches by issuer and recipient document or name, number and key', async () => {
      expect(await search('75.335.849/0001-15')).toEqual([K_MED]);
      expect(await search('34128745000152')).toEqual([K_A, K_B, K_C].sort());
      expect(await search('34128745')).toEqual([K_A, K_B, K_C].sort());
      expect(await search('produtos medicos')).toEqual([K_MED]);
      expect(await search('UNIMAKE')).toEqual([K_HML]);
      expect(await search('37148260000119')).toEqual([K_MED]);
      expect(await search('681.615.256-50')).toEqual([K_A]);
      expect(await search('fulano')).toEqual([K_A]);
      expect(await search('hosp')).toEqual([K_MED]);
      expect(await search('46320')).toEqual([K_HML]);
      expect(await search('47.612')).toEqual([K_B]);
      expect(await search(K_B)).toEqual([K_B]);
      expect(await search(K_C.replace(/(.{4})/g, '$1 ').trim())).toEqual([K_C]);
      expect(await search('nada com isto')).toEqual([]);
      expect(await search('100%')).toEqual([]);
      expect(await search('\u0301')).toEqual([]);
    });

    it('filters by status', async () => {
      expect(keys(await searcher.call('GET', '/v1/fiscal/nfe?status=somente_chave'))).toEqual([K_C]);
      expect(keys(await searcher.call('GET', '/v1/fiscal/nfe?status=importada'))).toEqual([K_HML, K_MED, K_A, K_B].sort());
      expect(keys(await searcher.call('GET', '/v1/fiscal/nfe?status=importada&search=alimentos'))).toEqual([K_A, K_B].sort());
      expectError(await searcher.call('GET', '/v1/fiscal/nfe?status=perdida'), 400, 'validacao');
    });

    it('pages with page and per_page (ruling 9)', async () => {
      const p1 = await searcher.call('GET', '/v1/fiscal/nfe?per_page=2');
      const p3 = await searcher.call('GET', '/v1/fiscal/nfe?per_page=2&page=3');
      expect(p1.body.meta).toEqual({ page: 1, per_page: 2, total: 5, next_cursor: expect.any(String) });
      expect(p1.body.data).toHaveLength(2);
      expect(p3.body.meta).toEqual({ page: 3, per_page: 2, total: 5, next_cursor: null });
      expect(p3.body.data).toHaveLength(1);
      const all = await searcher.call('GET', '/v1/fiscal/nfe?per_page=100');
      const paged = [...p1.body.data, ...(await searcher.call('GET', '/v1/fiscal/nfe?per_page=2&page=2')).body.data, ...p3.body.data];
      expect(paged.map((n: { access_key: string }) => n.access_key)).toEqual(
        all.body.data.map((n: { access_key: string }) => n.access_key),
      );
      expect((await searcher.call('GET', '/v1/fiscal/nfe?page=9')).body.data).toEqual([]);
      expectError(await searcher.call('GET', '/v1/fiscal/nfe?per_page=101'), 400, 'validacao');
      expectError(await searcher.call('GET', '/v1/fiscal/nfe?page=0'), 400, 'validacao');
    });
  });

  describe('per company', () => {
    it("another company's NF-e is not found anywhere; the same NF-e may be imported by both", async () => {
      const outsider = await app.carrier();
      expectError(await outsider.call('GET', `/v1/fiscal/nfe/${K_HML}`), 404, 'nao_encontrado');
      expectError(await outsider.call('DELETE', `/v1/fiscal/nfe/${K_HML}`), 404, 'nao_encontrado');
      expect((await outsider.call('GET', `/v1/fiscal/nfe?search=${K_HML}`)).body.data).toEqual([]);
      expect((await outsider.call('GET', '/v1/fiscal/nfe')).body.meta.total).toBe(0);

      expect(outcomes(await importar(outsider, [{ name: 'n.xml', content: nfeSample(S_HML) }]))).toEqual([`${K_HML}: importada`]);
      expect((await outsider.call('GET', `/v1/fiscal/nfe/${K_HML}`)).body.data.recebimentos).toBe(1);
      expect((await c.call('GET', `/v1/fiscal/nfe/${K_HML}`)).body.data.recebimentos).toBeGreaterThan(1);
    });

    it('404 for a malformed key; 401 without a credential', async () => {
      expectError(await c.call('GET', '/v1/fiscal/nfe/123'), 404, 'nao_encontrado');
      expectError(await c.call('DELETE', '/v1/fiscal/nfe/not-a-key'), 404, 'nao_encontrado');
      expectError(await c.call('GET', `/v1/fiscal/nfe/${K_HML.slice(0, 43)}0`), 404, 'nao_encontrado');
      expect((await request(`${app.url}/v1/fiscal/nfe`, 'GET')).status).toBe(401);
    });
  });

  describe('removal', () => {
    it('DELETE answers 204 with no body; then 404; importing again brings it back', async () => {
      const xml = nfeSample(S_ABROAD);
      await importar(other, [{ name: 'n.xml', content: xml }]);
      const del = await other.call('DELETE', `/v1/fiscal/nfe/${K_ABROAD}`);
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expectError(await other.call('GET', `/v1/fiscal/nfe/${K_ABROAD}`), 404, 'nao_encontrado');
      expectError(await other.call('DELETE', `/v1/fiscal/nfe/${K_ABROAD}`), 404, 'nao_encontrado');
      expect((await other.call('GET', `/v1/fiscal/nfe?search=${K_ABROAD}`)).body.data).toEqual([]);
      expect(outcomes(await importar(other, [{ name: 'n.xml', content: xml }]))).toEqual([`${K_ABROAD}: importada`]);
      expect((await other.call('GET', `/v1/fiscal/nfe/${K_ABROAD}`)).body.data.recebimentos).toBe(1);

      const events = await app.running.platform.store.readStream(`nfe-${other.companyId}-${K_ABROAD}`);
      expect(events.map((e) => e.type)).toEqual(['nfe.importada', 'nfe.removida', 'nfe.importada']);
      expect(events.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      expect(events[0]!.data).toMatchObject({
        company_id: other.companyId,
        chave: K_ABROAD,
        arquivo: { sha256: sha256(xml) },
        nfe: { numero: 26663 },
      });
      expect(events[0]!.metadata).toMatchObject({ company_id: other.companyId, actor: `credential:${other.credentialId}` });
    });

    it('422 nfe_vinculada while an own CT-e carries the key; the NF-e shows as vinculada', async () => {
      const owner = await app.carrier({ name: 'TRANSPORTES VINCULO LTDA' });
      expect(
        outcomes(
          await importar(owner, [
            { name: 'n.xml', content: nfeSample(S_MED) },
            { name: 'd.pdf', content: await danfePdf([{ key: K_A }]) },
          ]),
        ),
      ).toEqual([`${K_MED}: importada`, `${K_A}: somente_chave`]);
      const cte = buildCteXml({ emitenteCnpj: owner.cnpj, nfeChaves: [K_MED, K_A] });
      const delivered = await owner.call('POST', '/v1/fiscal/cte-emitidos', { xml: cte.xml });
      expect(delivered.status).toBe(201);

      expectError(await owner.call('DELETE', `/v1/fiscal/nfe/${K_MED}`), 422, 'nfe_vinculada');
      expectError(await owner.call('DELETE', `/v1/fiscal/nfe/${K_A}`), 422, 'nfe_vinculada');
      const get = await owner.call('GET', `/v1/fiscal/nfe/${K_MED}`);
      expect(get.body.data).toMatchObject({ status: 'vinculada', xml_disponivel: true, ctes_vinculados: [delivered.body.data.id] });
      expect((await owner.call('GET', '/v1/fiscal/nfe?status=vinculada')).body.meta.total).toBe(2);
      expect((await owner.call('GET', '/v1/fiscal/nfe?status=importada')).body.meta.total).toBe(0);
      // the link is the company's own: another company's copy of the NF-e stays free
      expect((await c.call('GET', `/v1/fiscal/nfe/${K_MED}`)).body.data.status).toBe('importada');

      const events = await app.running.platform.store.readStream(`nfe-${owner.companyId}-${K_MED}`);
      expect(events.map((e) => e.type)).toEqual(['nfe.importada']);
    });

    it('records every receipt in the stream, in order', async () => {
      const events = await app.running.platform.store.readStream(`nfe-${c.companyId}-${K_A}`);
      expect(events.map((e) => e.type)).toEqual(['nfe.chave_importada', 'nfe.reimportada', 'nfe.importada', 'nfe.reimportada']);
      expect(events.map((e) => (e.data as { arquivo: { nome: string } }).arquivo.nome)).toEqual([
        'danfe.pdf',
        'danfe.pdf',
        'a.xml',
        'danfe.pdf',
      ]);
      expect(events[2]!.data).toMatchObject({ completou_chave: true });
      const med = await app.running.platform.store.readStream(`nfe-${c.companyId}-${K_MED}`);
      expect(med.map((e) => [e.type, (e.data as { substituiu_xml?: boolean }).substituiu_xml ?? null])).toEqual([
        ['nfe.importada', null],
        ['nfe.reimportada', true],
        ['nfe.reimportada', false],
        ['nfe.reimportada', false],
      ]);
    });
  });

  it('documents the four routes in OpenAPI', async () => {
    const doc = (await request(`${app.url}/v1/openapi.json`, 'GET')).body;
    expect(Object.keys(doc.paths['/v1/fiscal/nfe/importacoes'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/v1/fiscal/nfe'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/fiscal/nfe/{access_key}']).sort()).toEqual(['delete', 'get']);
    const post = doc.paths['/v1/fiscal/nfe/importacoes'].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '413', '415', '422']));
    expect(Object.keys(post.requestBody.content)).toEqual(['multipart/form-data']);
    const status = doc.paths['/v1/fiscal/nfe'].get.parameters.find((p: { name: string }) => p.name === 'status');
    expect(status.schema.anyOf.map((s: { enum?: string[]; const?: string }) => s.enum?.[0] ?? s.const)).toEqual([
      'importada',
      'somente_chave',
      'vinculada',
    ]);
    expect(doc.paths['/v1/fiscal/nfe/{access_key}'].delete.responses['204']).toBeDefined();
  });
});
