import { makeA1 } from '../support/certificates';
import { startTestApp, expectError, request, type TestApp, type TestCarrier } from '../support/app';

const upload = (c: TestCarrier, file: Buffer | null, password: string | null, name = 'empresa.pfx', type = 'application/x-pkcs12') => {
  const form = new FormData();
  if (file) form.append('file', new Blob([typeof file === 'string' ? file : new Uint8Array(file)], { type }), name);
  if (password !== null) form.append('cert_pass', password);
  return c.call('POST', '/v1/fiscal/certificado', form);
};

describe('/fiscal/certificado', () => {
  let app: TestApp;
  let c: TestCarrier;
  beforeAll(async () => {
    app = await startTestApp();
    c = await app.carrier({ name: 'TRANSPORTES CERT LTDA' });
  });
  afterAll(() => app?.close());

  it('reports no certificate before the first upload', async () => {
    const res = await c.call('GET', '/v1/fiscal/certificado');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ presente: false, cnpj: null, valido_ate: null });
  });

  it('opens the PKCS#12, reads its metadata and keeps file and password sealed', async () => {
    const a1 = makeA1({ cnpj: c.cnpj, razao: 'TRANSPORTES CERT LTDA', password: 's3nh@-A1', cnpjIn: 'otherName' });
    const res = await upload(c, a1.pfx, 's3nh@-A1');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      environment: 'homologacao',
      data: { presente: true, cnpj: c.cnpj, titular: 'TRANSPORTES CERT LTDA', nome_arquivo: 'empresa.pfx' },
    });
    expect(res.body.data.serial).toMatch(/^[0-9A-F]+$/);
    expect(res.body.data.dias_para_expirar).toBeGreaterThan(300);
    expect(res.text).not.toContain('s3nh@-A1');
    const get = await c.call('GET', '/v1/fiscal/certificado');
    expect(get.body.data).toEqual(res.body.data);

    const blobs = await app.db.pool.query(`SELECT ciphertext FROM secure_blobs WHERE company_id = $1`, [c.companyId]);
    expect(blobs.rows).toHaveLength(1);
    const sealed: Buffer = blobs.rows[0].ciphertext;
    expect(sealed.includes(Buffer.from('s3nh@-A1'))).toBe(false);
    expect(sealed.includes(a1.pfx.subarray(0, 64))).toBe(false);
    const events = await app.running.platform.store.readStream(`certificado-${c.companyId}`);
    const logged = JSON.stringify(events, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(logged).not.toContain('s3nh@-A1');
    expect(logged).not.toContain(a1.pfx.toString('base64').slice(0, 40));
    const opened = await app.running.platform.certificates.load(c.companyId, (events[0]!.data as { blob_id: string }).blob_id);
    expect(opened?.password).toBe('s3nh@-A1');
  });

  it('replaces the certificate and keeps only the new one sealed', async () => {
    const a1 = makeA1({ cnpj: c.cnpj, razao: 'TRANSPORTES CERT LTDA', password: 'outra', cnpjIn: 'cn', serial: '0ABCDEF1' });
    const res = await upload(c, a1.pfx, 'outra', 'novo.p12', 'application/octet-stream');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ serial: '0ABCDEF1', nome_arquivo: 'novo.p12' });
    const blobs = await app.db.pool.query(`SELECT count(*)::int AS n FROM secure_blobs WHERE company_id = $1`, [c.companyId]);
    expect(blobs.rows[0].n).toBe(1);
  });

  it('422 certificado_senha_incorreta for a wrong password', async () => {
    const a1 = makeA1({ cnpj: c.cnpj, razao: 'X', password: 'certa', cnpjIn: 'otherName' });
    expectError(await upload(c, a1.pfx, 'errada'), 422, 'certificado_senha_incorreta');
  });

  it('422 certificado_invalido for a file that is not a PKCS#12', async () => {
    expectError(await upload(c, Buffer.from('-----BEGIN CERTIFICATE-----\nnot really\n'), 'x'), 422, 'certificado_invalido');
  });

  it('422 certificado_expirado for an expired certificate', async () => {
    const a1 = makeA1({
      cnpj: c.cnpj,
      razao: 'X',
      password: 'p',
      cnpjIn: 'otherName',
      notBefore: new Date('2020-01-01'),
      notAfter: new Date('2021-01-01'),
    });
    expectError(await upload(c, a1.pfx, 'p'), 422, 'certificado_expirado');
  });

  it("422 certificado_cnpj_divergente for another company's certificate", async () => {
    const a1 = makeA1({ cnpj: '99888777000105', razao: 'OUTRA', password: 'p', cnpjIn: 'otherName' });
    expectError(await upload(c, a1.pfx, 'p'), 422, 'certificado_cnpj_divergente');
  });

  it('422 certificado_invalido for a certificate without CNPJ', async () => {
    const a1 = makeA1({ cnpj: c.cnpj, razao: 'X', password: 'p', cnpjIn: 'none' });
    expectError(await upload(c, a1.pfx, 'p'), 422, 'certificado_invalido');
  });

  it('400 validacao for missing parts and wrong file kinds; 415 without multipart', async () => {
    const missing = expectError(await upload(c, null, null), 400, 'validacao');
    expect(missing.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['file', 'cert_pass']);
    const a1 = makeA1({ cnpj: c.cnpj, razao: 'X', password: 'p', cnpjIn: 'otherName' });
    expectError(await upload(c, a1.pfx, 'p', 'cert.pem'), 400, 'validacao');
    expectError(await upload(c, a1.pfx, 'p', 'cert.pfx', 'text/plain'), 400, 'validacao');
    expectError(await c.call('POST', '/v1/fiscal/certificado', { file: 'x' }), 415, 'tipo_de_midia_nao_suportado');
  });

  it('413 for a file over 10 MB', async () => {
    expectError(await upload(c, Buffer.alloc(10 * 1024 * 1024 + 10, 1), 'p'), 413, 'payload_muito_grande');
  });

  it('DELETE is idempotent and shreds the sealed file', async () => {
    const first = await c.call('DELETE', '/v1/fiscal/certificado');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { removed: true }, environment: 'homologacao' });
    const second = await c.call('DELETE', '/v1/fiscal/certificado');
    expect(second.body.data.removed).toBe(false);
    expect((await c.call('GET', '/v1/fiscal/certificado')).body.data.presente).toBe(false);
    const blobs = await app.db.pool.query(`SELECT count(*)::int AS n FROM secure_blobs WHERE company_id = $1`, [c.companyId]);
    expect(blobs.rows[0].n).toBe(0);
  });

  it('keeps certificates per company', async () => {
    const other = await app.carrier();
    expect((await other.call('GET', '/v1/fiscal/certificado')).body.data.presente).toBe(false);
    expect((await request(`${app.url}/v1/fiscal/certificado`, 'DELETE')).status).toBe(401);
  });
});
