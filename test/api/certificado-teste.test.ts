import { certificadoDeTeste, readPkcs12 } from '@frete/platform';
import { enviarCertificadoDeTeste, contextoDoSistema } from '@frete/application';
import { startTestApp, expectError, type TestApp, type TestCarrier } from '../support/app';
import { makeA1 } from '../support/certificates';

const upload = (c: TestCarrier, file: Buffer, password: string) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)], { type: 'application/x-pkcs12' }), 'teste.pfx');
  form.append('cert_pass', password);
  return c.call('POST', '/v1/fiscal/certificado', form);
};

describe('the sandbox test certificate (self-signed, naming the CNPJ)', () => {
  it('names the CNPJ in the common name and the ICP-Brasil otherName, and is self-signed', () => {
    const a1 = certificadoDeTeste({ cnpj: '11222333000181', razaoSocial: 'TRANSPORTADORA AÇÃO LTDA' });
    const read = readPkcs12(a1.pfx, a1.senha);
    expect(read.lido).toMatchObject({
      cnpj: '11222333000181',
      titular: 'TRANSPORTADORA AÇÃO LTDA',
      emissor: 'TRANSPORTADORA AÇÃO LTDA:11222333000181',
    });
    expect(read.autoassinado).toBe(true);
    expect(new Date(read.lido.valido_ate).getTime()).toBeGreaterThan(Date.now() + 4 * 365 * 86_400_000);
    // A certificate issued by a CA is not.
    const issued = makeA1({ cnpj: '11222333000181', razao: 'X', password: 'p', cnpjIn: 'otherName' });
    expect(readPkcs12(issued.pfx, 'p').autoassinado).toBe(false);
  });

  describe('in the sandbox', () => {
    let app: TestApp;
    let c: TestCarrier;
    beforeAll(async () => {
      app = await startTestApp();
      c = await app.carrier({ name: 'SANDBOX TRANSPORTES LTDA' });
    });
    afterAll(() => app?.close());

    it('201: the upload takes it, and a CT-e is signed with it', async () => {
      const a1 = certificadoDeTeste({ cnpj: c.cnpj, razaoSocial: 'SANDBOX TRANSPORTES LTDA' });
      const res = await upload(c, a1.pfx, a1.senha);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ presente: true, cnpj: c.cnpj, titular: 'SANDBOX TRANSPORTES LTDA' });
    });

    it('enviarCertificadoDeTeste sends one through the upload handler', async () => {
      const other = await app.carrier({ name: 'OUTRA SANDBOX LTDA' });
      const handlers = app.running.application.handlers;
      const sent = await enviarCertificadoDeTeste(
        { certificado: handlers.certificado, environment: 'homologacao' },
        contextoDoSistema(other.companyId, 'operator:test'),
        { cnpj: other.cnpj, razao_social: 'OUTRA SANDBOX LTDA' },
      );
      expect(sent.nome_arquivo).toBe(`teste-homologacao-${other.cnpj}.pfx`);
      // Sent outside a request: the read model follows the log in the background.
      let metadata = (await other.call('GET', '/v1/fiscal/certificado')).body.data;
      for (let i = 0; i < 100 && !metadata.presente; i++) {
        await new Promise((r) => setTimeout(r, 100));
        metadata = (await other.call('GET', '/v1/fiscal/certificado')).body.data;
      }
      expect(metadata).toMatchObject({ presente: true, cnpj: other.cnpj });
    });
  });

  describe('in production', () => {
    let app: TestApp;
    let c: TestCarrier;
    beforeAll(async () => {
      app = await startTestApp({ APP_ENVIRONMENT: 'producao' });
      c = await app.carrier({ name: 'PRODUCAO TRANSPORTES LTDA', fiscalProduction: true });
    });
    afterAll(() => app?.close());

    it('422 certificado_autoassinado for the test certificate; nothing sealed, none on file', async () => {
      const a1 = certificadoDeTeste({ cnpj: c.cnpj, razaoSocial: 'PRODUCAO TRANSPORTES LTDA' });
      const body = expectError(await upload(c, a1.pfx, a1.senha), 422, 'certificado_autoassinado');
      expect(body.error.message).toMatch(/self-signed.*only in the sandbox/);
      expect((await c.call('GET', '/v1/fiscal/certificado')).body.data.presente).toBe(false);
      const blobs = await app.db.pool.query(`SELECT count(*)::int AS n FROM secure_blobs WHERE company_id = $1`, [c.companyId]);
      expect(blobs.rows[0].n).toBe(0);
    });

    it('a certificate issued by a CA is taken as before', async () => {
      const a1 = makeA1({ cnpj: c.cnpj, razao: 'PRODUCAO TRANSPORTES LTDA', password: 'p', cnpjIn: 'otherName' });
      expect((await upload(c, a1.pfx, 'p')).status).toBe(201);
    });

    it('enviarCertificadoDeTeste refuses with homologacao_obrigatoria before making a key', async () => {
      const handlers = app.running.application.handlers;
      await expect(
        enviarCertificadoDeTeste(
          { certificado: handlers.certificado, environment: 'producao' },
          contextoDoSistema(c.companyId, 'operator:test'),
          { cnpj: c.cnpj, razao_social: 'PRODUCAO TRANSPORTES LTDA' },
        ),
      ).rejects.toMatchObject({ code: 'homologacao_obrigatoria' });
    });
  });
});
