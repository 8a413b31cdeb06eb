import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CTE_NS, EMITENTE } from '../support/autoridade-xml';
import { makeA1, testCaCertificatePem } from '../support/certificates';
import { freshDatabase, type TestDatabase } from '../support/db';
import { builtEntry, runNode, startUntil, stopProcess } from '../support/processes';
import { envelope, pedirHttps, retornoDe } from '../support/soap-cliente';

/** `pnpm authority`: the built entry point, configured by the environment as an integrator runs it. */

const VALIDADE = { notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z') };
const a1 = makeA1({ cnpj: EMITENTE, razao: 'TRANSPORTADORA EXEMPLO LTDA', password: 'senha', cnpjIn: 'otherName', ...VALIDADE });
const ENTRY = 'services/authority/dist/main/main.js';

let db: TestDatabase;
let dir: string;
let clientCa: string;
beforeAll(async () => {
  db = await freshDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autoridade-local-'));
  clientCa = path.join(dir, 'clientes.pem');
  fs.writeFileSync(clientCa, testCaCertificatePem());
});
afterAll(async () => {
  await db?.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('pnpm authority', () => {
  it('refuses to start naming every bad variable', async () => {
    const r = await runNode(builtEntry(ENTRY), [], {
      AUTHORITY_CLIENT_CA: '',
      AUTHORITY_PORT: 'x',
      AUTHORITY_TP_AMB: '3',
      AUTHORITY_TLS_CERT: path.join(dir, 'nada.pem'),
      DATABASE_URL: db.url,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("AUTHORITY_PORT must be an integer from 0 to 65535, got 'x'");
    expect(r.stderr).toContain("AUTHORITY_TP_AMB must be 1 (produção) or 2 (homologação), got '3'");
    expect(r.stderr).toContain(`AUTHORITY_TLS_CERT must name a readable PEM file, got '${path.join(dir, 'nada.pem')}' (not found)`);
    expect(r.stderr).toContain('AUTHORITY_TLS_CERT and AUTHORITY_TLS_KEY go together');
    expect(r.stderr).toContain('AUTHORITY_CLIENT_CA must name the PEM bundle of the CAs');
  });

  it('starts with a development CA, answers over mutual TLS, keeps its CA across restarts and stops on SIGTERM', async () => {
    const env = { DATABASE_URL: db.url, AUTHORITY_PORT: '0', AUTHORITY_DATA_DIR: dir, AUTHORITY_CLIENT_CA: clientCa };
    const pronto = /database: DATABASE_URL/;
    const primeira = await startUntil(builtEntry(ENTRY), env, pronto);
    const saida = primeira.output();
    const url = /local authority \(homologação, tpAmb 2\): (https:\/\/127\.0\.0\.1:[0-9]+)/.exec(saida)![1]!;
    const caFile = /development CA \(put it in the client's SEFAZ_CA_FILE\): (\S+) \(made now\)/.exec(saida)![1]!;
    expect(caFile).toBe(path.join(dir, 'tls', 'ca.pem'));
    expect(saida).toContain(`client certificates accepted from: ${clientCa}`);
    expect(saida).toContain(`faults: POST ${url}/_falhas`);

    const consStatServ = `<consStatServCTe xmlns="${CTE_NS}" versao="4.00"><tpAmb>2</tpAmb><cUF>43</cUF><xServ>STATUS</xServ></consStatServCTe>`;
    const perguntar = async (base: string) => {
      const r = await pedirHttps(base, '/RS/CTeStatusServicoV4', envelope('CTeStatusServicoV4', consStatServ), {
        ca: fs.readFileSync(caFile, 'utf8'),
        cliente: { key: a1.privateKeyPem, cert: a1.certificatePem },
      });
      return retornoDe('CTeStatusServicoV4', r, 'retConsStatServCTe').texto('cStat');
    };
    expect(await perguntar(url)).toBe('107');
    expect(await stopProcess(primeira.child)).toBe(0);
    expect(primeira.output()).toMatch(/SIGTERM: stopping\n {2}stopped server\n {2}stopped database/);

    // A client that trusts the development CA keeps trusting the server.
    const ca = fs.readFileSync(caFile, 'utf8');
    const segunda = await startUntil(builtEntry(ENTRY), env, pronto);
    try {
      expect(segunda.output()).not.toContain('(made now)');
      expect(fs.readFileSync(caFile, 'utf8')).toBe(ca);
      const outraUrl = /(https:\/\/127\.0\.0\.1:[0-9]+)/.exec(segunda.output())![1]!;
      expect(await perguntar(outraUrl)).toBe('107');
    } finally {
      expect(await stopProcess(segunda.child)).toBe(0);
    }
  });
});
