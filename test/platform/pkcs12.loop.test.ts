import { spawnSync } from 'node:child_process';
import { X509Certificate, createPrivateKey, randomBytes, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as forge from 'node-forge';
import {
  PKCS12_MAX_ITERATIONS_EACH,
  PKCS12_MAX_ITERATIONS_TOTAL,
  Pkcs12Error,
  type Pkcs12ErrorReason,
  describeCertificate,
  openPkcs12,
  readPkcs12,
} from '@frete/platform';
import { TEST_CA_NAME, cnpjFrom, makeA1 } from '../support/certificates';
import { pfxHidingKeyBags, withMacIterations } from '../support/costly-pkcs12';
import { expectLoopNotBlocked } from '../support/event-loop';
import { builtEntry, runNode } from '../support/processes';

const CNPJ = cnpjFrom('112223330001');
const ALFA = cnpjFrom('12ABC34501DE');
const RAZAO = 'TRANSPORTES EXEMPLO LTDA';
const SENHA = 'senha-do-a1';

function failure(run: () => unknown): Pkcs12Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Pkcs12Error) return error;
    throw error;
  }
  throw new Error('expected a Pkcs12Error');
}
const reasonOf = (run: () => unknown): Pkcs12ErrorReason => failure(run).reason;

/** The private key signs what the certificate's public key verifies (RSA-SHA1, as CT-e XML-DSig does). */
function keyMatchesCertificate(privateKeyPem: string, certificatePem: string): boolean {
  const data = Buffer.from('<infCte Id="CTe...">');
  const signature = sign('sha1', data, createPrivateKey(privateKeyPem));
  return verify('sha1', data, new X509Certificate(certificatePem).publicKey, signature);
}

describe('readPkcs12: what it reads from the certificate', () => {
  it('reads the CNPJ from the ICP-Brasil otherName 2.16.76.1.3.3, with holder, issuer, serial and validity', () => {
    const notBefore = new Date('2025-03-01T12:00:00Z');
    const notAfter = new Date('2026-03-01T12:00:00Z');
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', serial: '3a1b2c4d5e6f', notBefore, notAfter });
    const { lido } = readPkcs12(a1.pfx, SENHA);
    expect(lido).toEqual({
      titular: RAZAO,
      cnpj: CNPJ,
      emissor: TEST_CA_NAME,
      serial: '3A1B2C4D5E6F',
      valido_de: '2025-03-01T12:00:00.000Z',
      valido_ate: '2026-03-01T12:00:00.000Z',
    });
  });

  it('falls back to the NAME:CNPJ common name, and strips the CNPJ from the holder', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'cn' });
    expect(readPkcs12(a1.pfx, SENHA).lido).toMatchObject({ titular: RAZAO, cnpj: CNPJ });
  });

  it('reads RFB-style certificates that carry the CNPJ in both places', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'both' });
    expect(readPkcs12(a1.pfx, SENHA).lido).toMatchObject({ titular: RAZAO, cnpj: CNPJ });
  });

  it('gives cnpj null when the certificate carries none (the decider refuses it)', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'none' });
    expect(readPkcs12(a1.pfx, SENHA).lido).toMatchObject({ titular: RAZAO, cnpj: null });
  });

  it.each(['otherName', 'cn'] as const)('accepts an alphanumeric CNPJ (%s)', (cnpjIn) => {
    expect(ALFA).toMatch(/^[0-9]{2}[A-Z]{3}[0-9]{3}[0-9]{2}[A-Z]{2}[0-9]{2}$/);
    const a1 = makeA1({ cnpj: ALFA, razao: RAZAO, password: SENHA, cnpjIn });
    expect(readPkcs12(a1.pfx, SENHA).lido).toMatchObject({ titular: RAZAO, cnpj: ALFA });
  });

  it.each(['octet', 'printable', 'utf8'] as const)('reads the otherName value encoded as %s', (otherNameEncoding) => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', otherNameEncoding });
    expect(readPkcs12(a1.pfx, SENHA).lido.cnpj).toBe(CNPJ);
  });

  it('decodes UTF-8 names', () => {
    const razao = 'TRANSPORTES SÃO JOÃO & CIA LTDA';
    const a1 = makeA1({ cnpj: CNPJ, razao, password: SENHA, cnpjIn: 'cn' });
    expect(readPkcs12(a1.pfx, SENHA).lido).toMatchObject({ titular: razao, cnpj: CNPJ });
  });

  it('reads the serial as the certificate has it: uppercase hex, no DER sign byte', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', serial: 'c0ffee0123456789' });
    const { lido, certificatePem } = readPkcs12(a1.pfx, SENHA);
    expect(lido.serial).toBe('C0FFEE0123456789');
    expect(lido.serial).toBe(new X509Certificate(certificatePem).serialNumber.toUpperCase());
  });

  it("opens an expired certificate: judging validity is the decider's job", () => {
    const a1 = makeA1({
      cnpj: CNPJ,
      razao: RAZAO,
      password: SENHA,
      cnpjIn: 'otherName',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2021-01-01T00:00:00Z'),
    });
    expect(readPkcs12(a1.pfx, SENHA).lido).toMatchObject({ valido_de: '2020-01-01T00:00:00.000Z', valido_ate: '2021-01-01T00:00:00.000Z' });
  });

  it('describes a certificate given as PEM the same way', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'both' });
    expect(describeCertificate(a1.certificatePem)).toEqual(readPkcs12(a1.pfx, SENHA).lido);
  });
});

describe('readPkcs12: keys and chain', () => {
  it('picks the end-entity certificate that matches the key, even when the CA certificate comes first', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName' });
    const contents = readPkcs12(a1.pfx, SENHA);
    expect(contents.certificatePem).toBe(a1.certificatePem);
    expect(contents.chainPem).toEqual([a1.caCertificatePem]);
    expect(contents.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(keyMatchesCertificate(contents.privateKeyPem, contents.certificatePem)).toBe(true);
    expect(new X509Certificate(contents.certificatePem).verify(new X509Certificate(contents.chainPem[0]!).publicKey)).toBe(true);
    // the same key as the one the certificate was made for
    expect(createPrivateKey(contents.privateKeyPem).export({ format: 'jwk' })).toEqual(
      createPrivateKey(a1.privateKeyPem).export({ format: 'jwk' }),
    );
  });

  it('works with the end-entity certificate alone', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', includeChain: false, keyIndex: 1 });
    const contents = readPkcs12(a1.pfx, SENHA);
    expect(contents.certificatePem).toBe(a1.certificatePem);
    expect(contents.chainPem).toEqual([]);
    expect(keyMatchesCertificate(contents.privateKeyPem, contents.certificatePem)).toBe(true);
  });

  it('refuses a file whose key matches none of its certificates', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', mismatchedKey: true });
    expect(reasonOf(() => readPkcs12(a1.pfx, SENHA))).toBe('no_certificate');
  });

  it('refuses a file without a private key', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', withoutKey: true });
    expect(reasonOf(() => readPkcs12(a1.pfx, SENHA))).toBe('no_private_key');
  });

  it('refuses a file without a certificate', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', withoutCertificate: true });
    expect(reasonOf(() => readPkcs12(a1.pfx, SENHA))).toBe('no_certificate');
  });
});

describe('readPkcs12: algorithms, passwords and files that are not PKCS#12', () => {
  it.each(['3des', 'aes256'] as const)('opens a forge-made file with the key under %s', (algorithm) => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', algorithm });
    expect(readPkcs12(a1.pfx, SENHA).lido.cnpj).toBe(CNPJ);
  });

  it.each(['3des', 'aes256'] as const)('tells a wrong password (%s, MAC present)', (algorithm) => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', algorithm });
    const error = failure(() => readPkcs12(a1.pfx, 'errada'));
    expect(error.reason).toBe('wrong_password');
    expect(error.message).not.toContain('errada');
    expect(reasonOf(() => readPkcs12(a1.pfx, ''))).toBe('wrong_password');
    expect(reasonOf(() => readPkcs12(a1.pfx, 'sênha'))).toBe('wrong_password');
  });

  it.each(['3des', 'aes256'] as const)('tells a wrong password without a MAC too (%s)', (algorithm) => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName', algorithm, withoutMac: true });
    expect(readPkcs12(a1.pfx, SENHA).lido.cnpj).toBe(CNPJ);
    for (const wrong of ['errada', 'outra senha', '123456', '']) {
      expect(reasonOf(() => readPkcs12(a1.pfx, wrong))).toBe('wrong_password');
    }
  });

  it('refuses random bytes, a PEM text file, an empty file and a bare certificate as not PKCS#12', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName' });
    const certificateDer = Buffer.from(forge.pem.decode(a1.certificatePem)[0]!.body, 'binary');
    const files = [
      randomBytes(4096),
      Buffer.from(a1.certificatePem + a1.privateKeyPem, 'utf8'),
      Buffer.alloc(0),
      certificateDer,
      Buffer.from('%PDF-1.7\n'),
      Buffer.from(a1.pfx.toString('base64')),
    ];
    for (const file of files) expect(reasonOf(() => readPkcs12(file, SENHA))).toBe('not_pkcs12');
  });

  it('refuses a file that asks for absurd key-derivation work before doing any of it', () => {
    const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName' });
    const pfx = forge.asn1.fromDer(a1.pfx.toString('binary'));
    const macData = (pfx.value as forge.asn1.Asn1[])[2]!;
    (macData.value as forge.asn1.Asn1[])[2] = forge.asn1.create(
      forge.asn1.Class.UNIVERSAL,
      forge.asn1.Type.INTEGER,
      false,
      '\x7f\xff\xff\xff',
    );
    const crafted = Buffer.from(forge.asn1.toDer(pfx).getBytes(), 'binary');
    const started = Date.now();
    const error = failure(() => readPkcs12(crafted, SENHA));
    expect(error.reason).toBe('too_costly');
    expect(error.message).toMatch(/iterations/);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

const openssl = spawnSync('openssl', ['version'], { encoding: 'utf8' });
const hasOpenssl = openssl.status === 0;

(hasOpenssl ? describe : describe.skip)(`readPkcs12: files made by ${hasOpenssl ? openssl.stdout.trim() : 'openssl (not on PATH)'}`, () => {
  let dir: string;
  let a1: ReturnType<typeof makeA1>;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pkcs12-'));
    a1 = makeA1({ cnpj: ALFA, razao: RAZAO, password: SENHA, cnpjIn: 'otherName' });
    writeFileSync(path.join(dir, 'cert.pem'), a1.certificatePem);
    writeFileSync(path.join(dir, 'key.pem'), a1.privateKeyPem);
    writeFileSync(path.join(dir, 'ca.pem'), a1.caCertificatePem);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** `openssl pkcs12 -export`; null when this openssl refuses the options (e.g. no legacy provider). */
  function exportP12(name: string, password: string, extra: string[]): Buffer | null {
    const out = path.join(dir, name);
    const result = spawnSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        '-in',
        'cert.pem',
        '-inkey',
        'key.pem',
        '-certfile',
        'ca.pem',
        '-name',
        'e-CNPJ',
        '-passout',
        'env:P12_PASS',
        '-out',
        out,
        ...extra,
      ],
      { cwd: dir, env: { ...process.env, P12_PASS: password }, encoding: 'utf8' },
    );
    if (result.status !== 0) return null;
    return readFileSync(out);
  }

  function info(file: string, password: string, extra: string[] = []): string {
    const result = spawnSync('openssl', ['pkcs12', '-in', file, '-info', '-noout', '-passin', 'env:P12_PASS', ...extra], {
      cwd: dir,
      env: { ...process.env, P12_PASS: password },
      encoding: 'utf8',
    });
    return `${result.stdout}${result.stderr}`;
  }

  it('opens the OpenSSL 3 default (PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC, SHA-256 MAC)', () => {
    const pfx = exportP12('default.p12', SENHA, []);
    expect(pfx).not.toBeNull();
    expect(info('default.p12', SENHA)).toMatch(/AES-256-CBC/);
    const contents = readPkcs12(pfx!, SENHA);
    expect(contents.lido).toMatchObject({ cnpj: ALFA, titular: RAZAO, emissor: TEST_CA_NAME });
    expect(contents.certificatePem).toBe(a1.certificatePem);
    expect(contents.chainPem).toEqual([a1.caCertificatePem]);
    expect(keyMatchesCertificate(contents.privateKeyPem, contents.certificatePem)).toBe(true);
    expect(reasonOf(() => readPkcs12(pfx!, 'errada'))).toBe('wrong_password');
  });

  const legacy = spawnSync('openssl', ['list', '-providers', '-provider', 'legacy'], { encoding: 'utf8' }).status === 0;
  (legacy ? it : it.skip)('opens -legacy files (RC2-40 certificates, 3DES key, SHA-1 MAC), the way most A1 come', () => {
    const pfx = exportP12('legacy.p12', SENHA, ['-legacy']);
    expect(pfx).not.toBeNull();
    expect(info('legacy.p12', SENHA, ['-legacy'])).toMatch(/RC2-40-CBC|pbeWithSHA1And40BitRC2-CBC/i);
    const contents = readPkcs12(pfx!, SENHA);
    expect(contents.lido).toMatchObject({ cnpj: ALFA, titular: RAZAO });
    expect(contents.certificatePem).toBe(a1.certificatePem);
    expect(reasonOf(() => readPkcs12(pfx!, 'errada'))).toBe('wrong_password');
  });

  it('opens 3DES-only files (-certpbe/-keypbe PBE-SHA1-3DES -macalg sha1)', () => {
    const pfx = exportP12('3des.p12', SENHA, ['-certpbe', 'PBE-SHA1-3DES', '-keypbe', 'PBE-SHA1-3DES', '-macalg', 'sha1']);
    expect(pfx).not.toBeNull();
    expect(readPkcs12(pfx!, SENHA).lido.cnpj).toBe(ALFA);
  });

  it.each([
    ['default', [] as string[]],
    ['legacy', ['-legacy']],
  ])('opens %s files whose password is not ASCII', (_name, extra) => {
    if (extra.includes('-legacy') && !legacy) return;
    const password = 'Sênha€ção';
    const pfx = exportP12(`utf8-${_name}.p12`, password, extra);
    expect(pfx).not.toBeNull();
    expect(readPkcs12(pfx!, password).lido.cnpj).toBe(ALFA);
    expect(reasonOf(() => readPkcs12(pfx!, 'Senha€cao'))).toBe('wrong_password');
  });

  it('opens files without a MAC and with an empty password', () => {
    const noMac = exportP12('nomac.p12', SENHA, ['-nomac']);
    expect(readPkcs12(noMac!, SENHA).lido.cnpj).toBe(ALFA);
    expect(reasonOf(() => readPkcs12(noMac!, 'errada'))).toBe('wrong_password');
    const empty = exportP12('empty.p12', '', []);
    expect(readPkcs12(empty!, '').lido.cnpj).toBe(ALFA);
    expect(reasonOf(() => readPkcs12(empty!, 'x'))).toBe('wrong_password');
  });

  it('opens files whose certificates are not encrypted (-certpbe NONE)', () => {
    const pfx = exportP12('plaincerts.p12', SENHA, ['-certpbe', 'NONE']);
    expect(readPkcs12(pfx!, SENHA).lido.cnpj).toBe(ALFA);
  });
});

describe('the key-derivation budget and the worker', () => {
  const a1 = makeA1({ cnpj: CNPJ, razao: RAZAO, password: SENHA, cnpjIn: 'otherName' });

  it('derives hidden key bags only while the running total stays within the budget', () => {
    const hiding = pfxHidingKeyBags({ privateKeyPem: a1.privateKeyPem, password: SENHA, bags: 6, iterations: PKCS12_MAX_ITERATIONS_EACH });
    const error = failure(() => readPkcs12(hiding, SENHA));
    expect(error.reason).toBe('too_costly');
    expect(error.message).toBe(`the file asks for more than ${PKCS12_MAX_ITERATIONS_TOTAL} key-derivation iterations in all`);
    // The same hiding place with cheap bags is read through: it holds keys but no certificate.
    expect(
      reasonOf(() => readPkcs12(pfxHidingKeyBags({ privateKeyPem: a1.privateKeyPem, password: SENHA, bags: 6, iterations: 2048 }), SENHA)),
    ).toBe('no_certificate');
  });

  it('refuses a hidden bag asking for more than the limit at once, before deriving it', () => {
    const hiding = pfxHidingKeyBags({
      privateKeyPem: a1.privateKeyPem,
      password: SENHA,
      bags: 1,
      iterations: PKCS12_MAX_ITERATIONS_EACH + 1,
    });
    const error = failure(() => readPkcs12(hiding, SENHA));
    expect(error.reason).toBe('too_costly');
    expect(error.message).toMatch(/at once/);
  });

  it('opens in a worker thread what readPkcs12 opens, with the same refusals', async () => {
    const opened = await openPkcs12(a1.pfx, SENHA);
    expect(opened).toEqual(readPkcs12(a1.pfx, SENHA));
    await expect(openPkcs12(a1.pfx, 'errada')).rejects.toMatchObject({ name: 'Pkcs12Error', reason: 'wrong_password' });
    await expect(openPkcs12(Buffer.from('not a pfx'), SENHA)).rejects.toMatchObject({ name: 'Pkcs12Error', reason: 'not_pkcs12' });
  });

  it('terminates the worker at the time budget and refuses the file as too costly, without blocking the loop', async () => {
    const slow = withMacIterations(a1.pfx, PKCS12_MAX_ITERATIONS_EACH);
    const error = await expectLoopNotBlocked(() => openPkcs12(slow, SENHA, { timeoutMs: 300 }).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(Pkcs12Error);
    expect(error).toMatchObject({ reason: 'too_costly', message: 'the certificate file could not be opened in 0.3 s' });
  });

  it('works from the built code (`pnpm build`), as `pnpm start` runs it', async () => {
    const entry = builtEntry('services/platform/dist/certificates/open-pkcs12.js');
    const script =
      `require(${JSON.stringify(entry)}).openPkcs12(Buffer.from(process.env.PFX, 'base64'), process.env.SENHA)` +
      '.then((c) => console.log(JSON.stringify(c.lido)), (e) => console.log(JSON.stringify({ reason: e.reason })))';
    const run = (password: string) => runNode('-e', [script], { PFX: a1.pfx.toString('base64'), SENHA: password });
    const good = await run(SENHA);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toEqual(readPkcs12(a1.pfx, SENHA).lido);
    expect(JSON.parse((await run('errada')).stdout)).toEqual({ reason: 'wrong_password' });
  }, 60_000);
});
