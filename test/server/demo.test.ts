import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_CNPJ, ensureDemo } from '../../services/server/src/demo';
import { startTestApp, request, type TestApp, type TestCarrier } from '../support/app';
import { pollUntil, rascunhoEmitivel } from '../support/emissora';

/** The streams the demo's preparation writes to, and how many events each holds. */
async function streamLengths(app: TestApp, companyId: string): Promise<number[]> {
  const streams = [`certificado-${companyId}`, `configuracao-${companyId}`];
  const { rows } = await app.db.pool.query<{ stream_id: string; n: number }>(
    `SELECT stream_id, count(*)::int AS n FROM es_events WHERE stream_id LIKE '%' || $1 GROUP BY stream_id ORDER BY stream_id`,
    [companyId],
  );
  expect(rows.map((r) => r.stream_id)).toEqual(expect.arrayContaining(streams));
  return rows.map((r) => r.n);
}

describe('the demo carrier of the embedded default', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-demo-'));
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts ready to issue in the sandbox: a test A1, its configuration, tax rules, a driver and a vehicle; a CT-e is authorized at once', async () => {
    const { cnpj, api_key } = await ensureDemo(app.running.platform, app.running.application);
    expect(cnpj).toBe(DEMO_CNPJ);
    const demo = {
      call: (method: string, p: string, body?: unknown) => request(app.url + p, method, body, { authorization: `Bearer ${api_key}` }),
    };
    const company = (await app.running.application.operator.findCompany(DEMO_CNPJ))!;
    // Prepared outside a request: the read models follow the log in the background (the vehicle is written last).
    for (let i = 0; i < 100; i++) {
      if (((await demo.call('GET', '/v1/fiscal/veiculos')).body.data as unknown[]).length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const status = await demo.call('GET', '/v1/fiscal/status');
    expect(status.body.data).toMatchObject({
      disponivel: true,
      ambiente: 'homologacao',
      certificado: { presente: true, valido: true },
      configuracao: { completa: true, pendencias: [] },
      pendencias: [],
    });
    expect((await demo.call('GET', '/v1/fiscal/certificado')).body.data).toMatchObject({
      cnpj: DEMO_CNPJ,
      titular: 'TRANSPORTADORA DEMONSTRACAO LTDA',
      nome_arquivo: `teste-homologacao-${DEMO_CNPJ}.pfx`,
    });
    expect((await demo.call('GET', '/v1/fiscal/motoristas')).body.data).toEqual([
      expect.objectContaining({ cpf: '52998224725', repasse: expect.objectContaining({ modo: 'automatico' }) }),
    ]);
    expect((await demo.call('GET', '/v1/fiscal/veiculos')).body.data).toEqual([expect.objectContaining({ placa: 'ABC1D23' })]);
    const regras = (await demo.call('GET', '/v1/fiscal/regras-tributacao')).body.data as { uf_origem: string; uf_destino: string }[];
    expect(regras.map((r) => `${r.uf_origem}-${r.uf_destino}`)).toEqual(['SP-RJ']);
    const credential = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credential.json'), 'utf8'));
    expect(credential).toMatchObject({ cnpj: DEMO_CNPJ, api_key });

    const draft = await demo.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
    expect(draft.status).toBe(201);
    const id = draft.body.data.id as string;
    expect((await demo.call('POST', `/v1/fiscal/cte/${id}/emissao`)).status).toBe(202);
    const done = await pollUntil(demo as TestCarrier, `/v1/fiscal/cte/${id}/consulta`);
    expect(done.body.data.situacao).toBe('autorizado');

    // A restart prepares nothing again and prints the same key.
    const before = await streamLengths(app, company.company_id);
    expect((await ensureDemo(app.running.platform, app.running.application)).api_key).toBe(api_key);
    expect(await streamLengths(app, company.company_id)).toEqual(before);
  }, 120_000);
});
