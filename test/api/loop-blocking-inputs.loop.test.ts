import { PKCS12_MAX_ITERATIONS_EACH } from '@frete/platform';
import { startTestApp, expectError, randomCnpj, request, type ApiResponse, type TestApp, type TestCarrier } from '../support/app';
import { makeA1 } from '../support/certificates';
import { pfxHidingKeyBags, withMacIterations } from '../support/costly-pkcs12';
import { buildCteXml } from '../support/cte-xml';
import { expectLoopNotBlocked } from '../support/event-loop';
import { danfePdf, nfeKey, nfeSample } from '../support/nfe-files';

/**
 * Bodies that once held the event loop for seconds to hours (issue 11, defect 1): each is refused with its code,
 * the answer does not repeat the input, and no request blocks the loop longer than the bound meanwhile.
 * Documents over 64 KB are read in a worker thread: the last tests check that what it reads is accepted as before.
 * (`expectLoopNotBlocked` runs a request twice when the first breaches the bound, so it wraps refusals only.)
 */

const MAX_XML_CHARS = 2 * 1024 * 1024;

/** The answer is short and quotes no long stretch of what was sent. */
function expectNoEcho(res: ApiResponse, sent: string): void {
  expect(res.text.length).toBeLessThan(2000);
  expect(res.text).not.toContain(sent.slice(0, 200));
  expect(res.text).not.toContain(sent.slice(-200));
}

const xmlFile = (part: string, content: string, name = 'documento.xml') => {
  const form = new FormData();
  form.append(part, new Blob([content], { type: 'application/xml' }), name);
  return form;
};

describe('inputs that held the event loop', () => {
  let app: TestApp;
  let c: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ name: 'TRANSPORTES LOOP LTDA' });
  }, 120_000);
  afterAll(() => app?.close());

  const importar = (name: string, content: string | Buffer, type = 'application/xml') => {
    const form = new FormData();
    form.append('arquivos[]', new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type }), name);
    return c.call('POST', '/v1/fiscal/nfe/importacoes', form);
  };

  describe('CT-e intake (JSON `xml` and multipart `arquivo`)', () => {
    const inbox = (body: unknown) => c.call('POST', '/v1/fiscal/cte-subcontratacao', body);

    it('400 validacao for a 2 MB `xml` of spaces', async () => {
      const xml = ' '.repeat(MAX_XML_CHARS);
      const res = await expectLoopNotBlocked(() => inbox({ xml }));
      expectError(res, 400, 'validacao');
      expectNoEcho(res, xml);
    });

    it('400 validacao for 2 MB of blanks ending in a character outside base64 (the base64 test backtracked on it)', async () => {
      const xml = ' '.repeat(MAX_XML_CHARS - 1) + '.';
      const res = await expectLoopNotBlocked(() => inbox({ xml }));
      expectError(res, 400, 'validacao');
      expectNoEcho(res, xml);
    });

    it('400 validacao for base64 of an XML, wrapped in lines, with a long run of blanks and a stray character after it', async () => {
      const base64 = Buffer.from('<?xml version="1.0"?><CTe/>'.padEnd(3000, ' ')).toString('base64').replace(/.{76}/g, '$&\r\n');
      const xml = base64 + '\n' + ' '.repeat(2_000_000) + '#';
      const res = await expectLoopNotBlocked(() => inbox({ xml }));
      expectError(res, 400, 'validacao');
      expectNoEcho(res, xml);
    });

    it("400 xml_malformado for 128,000 repetitions of `<a` (JSON), quoting only the start of the parser's complaint", async () => {
      const xml = '<a'.repeat(128_000);
      const res = await expectLoopNotBlocked(() => inbox({ xml }));
      expectError(res, 400, 'xml_malformado');
      expectNoEcho(res, xml);
      expect(res.body.error.message).toMatch(/^malformed XML at line 1: .*\(\d+ characters\)$/);
    });

    it('400 xml_malformado for 128,000 repetitions of `<a` as a file, on both intake routes', async () => {
      const xml = '<a'.repeat(128_000);
      for (const route of ['/v1/fiscal/cte-subcontratacao', '/v1/fiscal/cte-emitidos']) {
        const res = await expectLoopNotBlocked(() => c.call('POST', route, xmlFile('arquivo', xml)));
        expectError(res, 400, 'xml_malformado');
        expectNoEcho(res, xml);
      }
    });

    it('400 xml_malformado for 2 MB of `<a` (the longest `xml` accepted)', async () => {
      const xml = '<a'.repeat(MAX_XML_CHARS / 2);
      const res = await expectLoopNotBlocked(() => inbox({ xml }));
      expectError(res, 400, 'xml_malformado');
      expectNoEcho(res, xml);
    });

    it('422 documento_nao_e_cte for a well-formed 2 MB XML of small elements', async () => {
      const xml = '<r>' + '<a/>'.repeat((MAX_XML_CHARS - 7) / 4 - 1) + '</r>';
      const res = await expectLoopNotBlocked(() => inbox({ xml }));
      expectError(res, 422, 'documento_nao_e_cte');
      expectNoEcho(res, xml);
    });

    it('422 chave_invalida without repeating a huge key', async () => {
      const id = 'CTe' + '1'.repeat(500_000);
      const xml = `<CTe><infCte versao="4.00" Id="${id}"/></CTe>`;
      const res = await expectLoopNotBlocked(() => inbox({ xml }));
      expectError(res, 422, 'chave_invalida');
      expectNoEcho(res, id);
    });
  });

  describe('NF-e import', () => {
    it('422 nenhuma_nfe_importada for a 4 MB file of `<a`: its xml_malformado does not repeat it', async () => {
      const xml = '<a'.repeat(2_000_000);
      const res = await expectLoopNotBlocked(() => importar('nota.xml', xml));
      const body = expectError(res, 422, 'nenhuma_nfe_importada');
      expect(body.error.details.arquivos[0].erros.map((e: { code: string }) => e.code)).toEqual(['xml_malformado']);
      expectNoEcho(res, xml);
    }, 60_000);

    it("422 nenhuma_nfe_importada for a file of 128,000 repetitions of `<a`: the file's xml_malformado does not repeat it", async () => {
      const xml = '<a'.repeat(128_000);
      const res = await expectLoopNotBlocked(() => importar('nota.xml', xml));
      const body = expectError(res, 422, 'nenhuma_nfe_importada');
      expect(body.error.details.arquivos[0].erros.map((e: { code: string }) => e.code)).toEqual(['xml_malformado']);
      expectNoEcho(res, xml);
    });
  });

  describe('documents over 64 KB, read in the worker, are accepted as before', () => {
    const padding = (chars: number) => `<!--${' '.repeat(chars)}-->`;

    it('201 for a CT-e with a long observation', async () => {
      const cte = buildCteXml({ emitenteCnpj: randomCnpj(), observacao: 'ENTREGAR NO DOCA 3. '.repeat(4000) });
      expect(cte.xml.length).toBeGreaterThan(64 * 1024);
      const res = await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml: cte.xml });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ access_key: cte.chave, status: 'recebido', service_value: expect.any(Number) });
    });

    it('an own CT-e with a long observation: delivered (201), handed off (201) and printed (DACTE) from the archived XML', async () => {
      const cte = buildCteXml({
        emitenteCnpj: c.cnpj,
        emitenteNome: 'TRANSPORTES LOOP LTDA',
        observacao: 'ENTREGAR NO DOCA 3. '.repeat(4000),
      });
      const delivered = await c.call('POST', '/v1/fiscal/cte-emitidos', { xml: cte.xml });
      expect(delivered.status).toBe(201);
      const sub = await app.carrier({ name: 'SUBCONTRATADA LOOP LTDA' });
      const handedOff = await c.call('POST', `/v1/fiscal/cte/${delivered.body.data.id}/subcontratacao`, {
        subcontratada: { cnpj: sub.cnpj },
      });
      expect(handedOff.status).toBe(201);
      expect(handedOff.body.data.recebimento).toMatchObject({ access_key: cte.chave, status: 'recebido' });
      const dacte = await fetch(`${app.url}/v1/fiscal/cte/${delivered.body.data.id}/dacte`, {
        headers: { authorization: `Bearer ${c.apiKey}` },
      });
      expect({ status: dacte.status, type: dacte.headers.get('content-type') }).toEqual({ status: 200, type: 'application/pdf' });
    }, 60_000);

    it('201 for an NF-e XML padded past 64 KB', async () => {
      const xml = nfeSample('35180834128745000152550010000474281920007498-nfe.xml').toString('utf8');
      const padded = xml.replace(/^(<\?xml[^>]*\?>)?/, (declaration) => declaration + padding(70_000));
      const res = await importar('grande.xml', padded);
      expect(res.status).toBe(201);
      expect(res.body.data.arquivos[0].nfes).toEqual([
        { access_key: '35180834128745000152550010000474281920007498', resultado: 'importada', entrada: null },
      ]);
    });

    it('201 for a DANFE whose text passes 64 KB: its key is found', async () => {
      const key = nfeKey({ numero: 4242 });
      const pdf = await danfePdf([{ key, extra: 'PRODUTO DE TESTE 0001 UN 1,0000 '.repeat(2200) }]);
      const res = await importar('danfe.pdf', pdf, 'application/pdf');
      expect(res.status).toBe(201);
      expect(res.body.data.arquivos[0].nfes).toEqual([{ access_key: key, resultado: 'somente_chave', entrada: null }]);
    }, 60_000);
  });

  describe('certificate upload (PKCS#12 opened in a worker thread)', () => {
    const SENHA = 'senha-do-a1';
    const upload = (file: Buffer, password: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)], { type: 'application/x-pkcs12' }), 'empresa.pfx');
      form.append('cert_pass', password);
      return c.call('POST', '/v1/fiscal/certificado', form);
    };

    it('a MAC at the accepted 1,000,000 iterations is derived off the loop: /health answers meanwhile; 422 certificado_senha_incorreta', async () => {
      const a1 = makeA1({ cnpj: c.cnpj, razao: 'TRANSPORTES LOOP LTDA', password: SENHA, cnpjIn: 'otherName' });
      // The MAC value is the one for 2,048 iterations: the reader derives a million, then finds no password matches.
      const pfx = withMacIterations(a1.pfx, PKCS12_MAX_ITERATIONS_EACH);
      const res = await expectLoopNotBlocked(async () => {
        let opened = false;
        const uploading = upload(pfx, SENHA).finally(() => (opened = true));
        const health = await request(`${app.url}/health`, 'GET');
        expect(health.status).toBe(200);
        expect(opened).toBe(false);
        return uploading;
      });
      expectError(res, 422, 'certificado_senha_incorreta');
      expect((await c.call('GET', '/v1/fiscal/certificado')).body.data.presente).toBe(false);
    }, 120_000);

    it('422 certificado_invalido for key bags of a million iterations each hidden in encrypted content without a MAC', async () => {
      const a1 = makeA1({ cnpj: c.cnpj, razao: 'TRANSPORTES LOOP LTDA', password: SENHA, cnpjIn: 'otherName' });
      const pfx = pfxHidingKeyBags({ privateKeyPem: a1.privateKeyPem, password: SENHA, bags: 6, iterations: PKCS12_MAX_ITERATIONS_EACH });
      const res = await expectLoopNotBlocked(() => upload(pfx, SENHA));
      const body = expectError(res, 422, 'certificado_invalido');
      expect(body.error.message).toMatch(/key-derivation iterations in all/);
      expect(res.text).not.toContain(SENHA);
    }, 120_000);
  });
});
