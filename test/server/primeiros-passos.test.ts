import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT, builtEntry, semConfiguracao, stopProcess } from '../support/processes';
import { request } from '../support/app';

/** The README's "First steps": its ```sh blocks, in order. */
function primeirosPassos(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## First steps\n');
  if (start < 0) throw new Error('the README has no "## First steps" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** A port no one listens on now: the start is given it, so that its address is known without reading its banner. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number, output: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe().catch(() => null);
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms:\n${output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function runBash(
  script: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the first steps did not end within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const MARCA = '@@fim-do-bloco';

/** Issue 28: a newcomer's first document in minutes, by the README's own commands, on a fresh start of the built service. */
describe('README "First steps" on a fresh start', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-primeiros-passos-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('runs every block as pasted: an authorized CT-e and its DACTE, a received CT-e, a batch to its end, the scan and its installments', async () => {
    const blocks = primeirosPassos();
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    // What the test replaces: the address and the data folder of the start it made, and where the PDF goes.
    const script = blocks.join(`echo ${MARCA}\n`) + `echo ${MARCA}\n`;
    for (const literal of ['API=http://127.0.0.1:3000', './.data/homologacao/', '/tmp/dacte.pdf']) expect(script).toContain(literal);
    const port = await freePort();
    const pdf = path.join(dataDir, 'dacte.pdf');
    const adapted = script
      .replace('API=http://127.0.0.1:3000', `API=http://127.0.0.1:${port}`)
      .replaceAll('./.data/homologacao/', `${dataDir}/`)
      .replaceAll('/tmp/dacte.pdf', pdf);

    const began = Date.now();
    const child = spawn(process.execPath, [builtEntry('services/server/dist/main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...semConfiguracao(dataDir, { PORT: String(port), SERVICES: '' }),
      },
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    try {
      // Ready once the demo's key is on file (written after the demo is prepared) and the API answers.
      await until(
        'the demo credential and a ready API',
        async () => {
          if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output.slice(-3000)}`);
          if (!fs.existsSync(path.join(dataDir, 'demo-credential.json'))) return null;
          return (await request(`http://127.0.0.1:${port}/health/ready`, 'GET')).status === 200 ? true : null;
        },
        180_000,
        () => output,
      );
      const started = Date.now();
      const run = await runBash(adapted, {}, 180_000);
      const ended = Date.now();
      process.stderr.write(
        `README first steps: service ready in ${((started - began) / 1000).toFixed(1)} s, ` +
          `the commands ran in ${((ended - started) / 1000).toFixed(1)} s (${((ended - began) / 1000).toFixed(1)} s from a fresh start)\n`,
      );
      expect(run.stderr).toBe('');
      const [status, cte, lote, parcelas] = run.stdout.split(`${MARCA}\n`).map((s) => s.trim().split('\n'));

      expect(status).toEqual(['true']);

      expect(cte![0]).toMatch(/^\/v1\/fiscal\/cte\/[0-9a-f-]{36}\/consulta$/);
      expect(cte![1]).toMatch(/^CT-e [0-9a-f-]{36}: autorizado$/);
      expect(cte![2]).toMatch(/^%PDF-1\.\d/);
      const bytes = fs.readFileSync(pdf);
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect(bytes.subarray(-6).toString()).toContain('%%EOF');

      expect(lote![0]).toBe('true');
      expect(lote![1]).toMatch(/^\d+$/);
      expect(lote![2]).toBe('done');
      expect(JSON.parse(lote![3]!)).toEqual({ queued: 0, pending: 0, emitted: 1, duplicated: 0, failed: 0 });

      expect(JSON.parse(parcelas![0]!)).toEqual([]);
      const feitas = JSON.parse(parcelas![1]!) as { posicao: number; valor: number; situacao: string; liberada_por: string | null }[];
      expect(feitas.map((p) => [p.posicao, p.valor, p.situacao, p.liberada_por])).toEqual([
        [1, 1920, 'liberada', 'bipagem'],
        [2, 640, 'pendente', null],
        [3, 640, 'pendente', null],
      ]);
      expect(run.code).toBe(0);
    } finally {
      await stopProcess(child);
    }
  }, 420_000);
});
