import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { request, startTestApp, type TestApp, type TestCarrier } from '../support/app';
import { emissora, rascunhoEmitivel } from '../support/emissora';
import { AMBIENTE_COM_WEBHOOKS } from '../support/receptor-webhooks';

const ROOT = path.resolve(__dirname, '../..');
const EXEMPLO = path.join(ROOT, 'examples/cliente');
const node = (args: string[]) => spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });

/** The example's CLI as an integrator runs it; its JSON lines, and a wait for the first of a step. */
function executarExemplo(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [path.join(EXEMPLO, 'dist/src/main.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const linhas: Record<string, unknown>[] = [];
  const esperando: { etapa: string; resolve: (l: Record<string, unknown>) => void }[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  readline.createInterface({ input: child.stdout! }).on('line', (text) => {
    const linha = JSON.parse(text) as Record<string, unknown>;
    linhas.push(linha);
    for (const w of esperando.filter((x) => x.etapa === linha.etapa)) w.resolve(linha);
  });
  const saida = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    linhas,
    saida,
    stderr: () => stderr,
    etapa: (etapa: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const feita = linhas.find((l) => l.etapa === etapa);
        if (feita) return resolve(feita);
        esperando.push({ etapa, resolve });
        void saida.then(() => reject(new Error(`the example ended without '${etapa}': ${JSON.stringify(linhas)} ${stderr}`)));
      }),
  };
}

/**
 * Issue 16, point 3: types generated (openapi-typescript) from the document the running service serves type-check the
 * example client (openapi-fetch), which then issues a draft CT-e over real HTTP, polls it to its result, and verifies
 * a Standard Webhooks delivery (standardwebhooks) the way a receiver must.
 */
describe('the example client (examples/cliente), generated from the served OpenAPI document', () => {
  let app: TestApp;
  let c: TestCarrier;
  let dir: string;

  let gerar: ReturnType<typeof node>;
  let tsc: ReturnType<typeof node>;

  beforeAll(async () => {
    app = await startTestApp(AMBIENTE_COM_WEBHOOKS);
    c = await emissora(app, 'EXEMPLO TRANSPORTES LTDA', ['fiscal', 'webhooks']);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-cliente-'));
    // The types from the document this service serves, and the example compiled against them (the CLI the tests run).
    const doc = await request(`${app.url}/v1/openapi.json`, 'GET');
    if (doc.status !== 200) throw new Error(`openapi.json: ${doc.status}`);
    fs.mkdirSync(path.join(EXEMPLO, 'generated'), { recursive: true });
    fs.writeFileSync(path.join(EXEMPLO, 'generated/openapi.json'), doc.text);
    gerar = node([
      // Its package exports no bin path: the workspace's own install, as `pnpm client:check` runs it.
      path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
      path.join(EXEMPLO, 'generated/openapi.json'),
      '-o',
      path.join(EXEMPLO, 'generated/api.d.ts'),
    ]);
    tsc = node([require.resolve('typescript/bin/tsc'), '-p', EXEMPLO]);
  }, 180_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await app?.close();
  });

  it('openapi-typescript generates the types from GET /v1/openapi.json and the example compiles against them', () => {
    expect({ status: gerar.status, stderr: gerar.stderr }).toMatchObject({ status: 0 });
    const tipos = fs.readFileSync(path.join(EXEMPLO, 'generated/api.d.ts'), 'utf8');
    expect(tipos).toContain('criarRascunhoCte: {');
    // A type error anywhere in the example fails here, with tsc's message.
    expect({ status: tsc.status, out: tsc.stdout }).toEqual({ status: 0, out: '' });
  });

  it('creates a draft, issues it and polls it to autorizado over HTTP; a signed webhook is verified, a forged one refused', async () => {
    const rascunho = path.join(dir, 'rascunho.json');
    fs.writeFileSync(rascunho, JSON.stringify(rascunhoEmitivel()));
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const exemplo = executarExemplo([rascunho], {
      FRETE_API_URL: app.url,
      FRETE_API_KEY: c.apiKey,
      FRETE_WEBHOOK_SECRET: secret,
      FRETE_WEBHOOK_ESPERA_MS: '60000',
    });
    const receptor = String((await exemplo.etapa('receptor')).url);
    const { emissao } = (await exemplo.etapa('emissao')) as { emissao: { id: string; situacao: string; conclusivo: boolean } };
    expect(emissao).toMatchObject({ situacao: 'autorizado', conclusivo: true });
    // The API agrees: the draft the example created is the authorized CT-e.
    const lido = await c.call('GET', `/v1/fiscal/cte/${emissao.id}`);
    expect(lido.body.data).toMatchObject({ id: emissao.id, situacao: 'autorizado' });

    // What the service's webhook sender does (Standard Webhooks, the endpoint's secret), here by the test.
    const enviar = async (payload: object, opcoes: { secret?: string; alterar?: (body: string) => string; id?: string } = {}) => {
      const id = opcoes.id ?? `msg_${randomUUID()}`;
      const agora = new Date();
      const body = JSON.stringify(payload);
      const signature = new Webhook(opcoes.secret ?? secret).sign(id, agora, body);
      const res = await fetch(receptor, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(agora.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: (opcoes.alterar ?? ((b) => b))(body),
      });
      return res.status;
    };
    const payload = {
      type: 'cte.autorizado',
      timestamp: new Date().toISOString(),
      data: { id: emissao.id, environment: 'homologacao', url: `/v1/fiscal/cte/${emissao.id}` },
    };
    expect(await enviar(payload, { alterar: (b) => b.replace('autorizado', 'cancelado') })).toBe(401);
    expect(await enviar(payload, { secret: `whsec_${randomBytes(32).toString('base64')}` })).toBe(401);
    expect(exemplo.linhas.filter((l) => l.etapa === 'webhook')).toEqual([]);
    // About another CT-e: handled, and the example keeps waiting for its own. At least once: a redelivery of the same
    // message is acknowledged and not handled twice.
    const outro = { ...payload, data: { ...payload.data, id: randomUUID(), url: '/v1/fiscal/cte/outro' } };
    const id = `msg_${randomUUID()}`;
    expect(await enviar(outro, { id })).toBe(204);
    expect(await enviar(outro, { id })).toBe(204);
    expect(await enviar(payload)).toBe(204);

    expect(await exemplo.saida).toBe(0);
    expect(exemplo.linhas.filter((l) => l.etapa === 'webhook')).toEqual([
      { etapa: 'webhook', payload: outro },
      { etapa: 'webhook', payload },
    ]);
    expect(exemplo.linhas.at(-1)).toEqual({ etapa: 'concluido', type: 'cte.autorizado' });
  });

  it("registers its own receiver through POST /v1/webhooks and gets the service's signed cte.autorizado about its CT-e", async () => {
    const rascunho = path.join(dir, 'registrado.json');
    fs.writeFileSync(rascunho, JSON.stringify(rascunhoEmitivel()));
    const exemplo = executarExemplo([rascunho], {
      FRETE_API_URL: app.url,
      FRETE_API_KEY: c.apiKey,
      FRETE_WEBHOOK_REGISTRAR: '1',
      FRETE_WEBHOOK_ESPERA_MS: '60000',
    });
    const { id: endpoint } = (await exemplo.etapa('webhook_registrado')) as { id: string };
    const { emissao } = (await exemplo.etapa('emissao')) as { emissao: { id: string; situacao: string } };
    expect(emissao.situacao).toBe('autorizado');
    expect(await exemplo.saida).toBe(0);
    // Verified by the example with the secret the API gave it, about the CT-e it issued, then the endpoint removed.
    const recebido = exemplo.linhas.find((l) => l.etapa === 'webhook') as { payload: { type: string; data: { id: string } } };
    expect(recebido.payload).toMatchObject({ type: 'cte.autorizado', data: { id: emissao.id, environment: 'homologacao' } });
    expect(exemplo.linhas.at(-1)).toEqual({ etapa: 'concluido', type: 'cte.autorizado' });
    expect((await c.call('GET', `/v1/webhooks/${endpoint}`)).status).toBe(404);
  });

  it("an API failure reaches the integrator as the envelope's status and code", async () => {
    const rascunho = path.join(dir, 'invalido.json');
    fs.writeFileSync(rascunho, JSON.stringify({ tipo_servico: 9 }));
    const exemplo = executarExemplo([rascunho], { FRETE_API_URL: app.url, FRETE_API_KEY: c.apiKey });
    expect(await exemplo.saida).toBe(1);
    expect(exemplo.linhas.at(-1)).toMatchObject({ etapa: 'falha', status: 400, code: 'validacao' });

    const semChave = executarExemplo([rascunho], { FRETE_API_URL: app.url, FRETE_API_KEY: 'fk_hml_invalida' });
    expect(await semChave.saida).toBe(1);
    expect(semChave.linhas.at(-1)).toMatchObject({ etapa: 'falha', status: 401, code: 'nao_autenticado' });
  });
});
