import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { builtEntry, runNode, semConfiguracao, startUntil, stopProcess } from '../support/processes';
import { request } from '../support/app';
import { nfeSample } from '../support/nfe-files';

/** Processes whose command line names the folder (Linux: /proc), i.e. a PostgreSQL server running on it. */
function postgresProcessesOn(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (/postgres$/.test(cmdline[0] ?? '') && cmdline.some((a) => a.startsWith(dir))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The steps of a stop as the process logged them (JSON lines `{"step": …, "msg": "stopped …"}`), in order. */
function stoppedSteps(output: string): string[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; step?: string })
    .filter((l) => l.msg?.startsWith('stopped '))
    .map((l) => l.step!);
}

/** `pnpm start` with no configuration: embedded PostgreSQL, every service in one process, a demo credential. */
describe('embedded default (the service as a newcomer starts it)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-embedded-'));
  const env = semConfiguracao(dataDir);
  const ready = /API: (http:\/\/[^\s]+)\/v1[\s\S]*API key \(all scopes\): (fk_hml_\S+)/;
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts, serves the demo carrier, keeps its data across a restart, and shares it with the operator tool', async () => {
    const entry = builtEntry('services/server/dist/main.js');
    const first = await startUntil(entry, env, ready, 120_000);
    const [, url, key] = first.match;
    let secondRun: Awaited<ReturnType<typeof startUntil>> | null = null;
    try {
      const auth = { authorization: `Bearer ${key}` };
      expect((await request(`${url}/health`, 'GET')).status).toBe(200);
      const put = await request(`${url}/v1/fiscal/configuracao`, 'PUT', { rntrc: '11223344' }, auth);
      expect(put.status).toBe(200);
      const listed = await runNode(builtEntry('services/ops/dist/main.js'), ['company', 'list'], env);
      expect(JSON.parse(listed.stdout).map((c: { cnpj: string }) => c.cnpj)).toContain('11222333000181');
      const postmaster = path.join(dataDir, 'postgres', 'postmaster.pid');
      const postgresPid = Number(fs.readFileSync(postmaster, 'utf8').split('\n')[0]);
      expect(postgresProcessesOn(dataDir)).toContain(postgresPid);

      // SIGTERM stops everything in order, embedded PostgreSQL last, and exits 0 leaving no server behind.
      expect(await stopProcess(first.child)).toBe(0);
      if (!first.child.stdout!.closed) await once(first.child.stdout!, 'close');
      const steps = stoppedSteps(first.output());
      expect(first.output()).toContain('SIGTERM: stopping');
      expect(steps).toEqual([
        'api',
        'distribuicao-schedule',
        'webhooks-dispatcher',
        'distribuicao-processor',
        'webhooks-processor',
        'payout-processor',
        'emission-processor',
        'projector',
        'schema validator',
        'projections',
        'event store',
        'database pool',
        'embedded PostgreSQL',
      ]);
      expect(fs.existsSync(postmaster)).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'postgres.json'))).toBe(false);
      expect(postgresProcessesOn(dataDir)).toEqual([]);

      secondRun = await startUntil(entry, env, ready, 120_000);
      const [, url2, key2] = secondRun.match;
      expect(key2).toBe(key);
      const get = await request(`${url2}/v1/fiscal/configuracao`, 'GET', undefined, { authorization: `Bearer ${key2}` });
      expect(get.body.data.rntrc).toBe('11223344');
    } finally {
      await stopProcess(first.child);
      if (secondRun) await stopProcess(secondRun.child);
    }
  }, 300_000);

  it('on SIGTERM answers the request in flight before it stops PostgreSQL, and exits 0', async () => {
    // Only the API: a GET after a write then waits (polling PostgreSQL) for read models that no projector fills.
    const apiOnly = { ...env, SERVICES: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '4000' };
    const run = await startUntil(builtEntry('services/server/dist/main.js'), apiOnly, ready, 120_000);
    const [, url, key] = run.match;
    try {
      const auth = { authorization: `Bearer ${key}` };
      expect((await request(`${url}/v1/fiscal/configuracao`, 'PUT', { rntrc: '55667788' }, auth)).status).toBe(200);
      const inFlight = request(`${url}/v1/fiscal/configuracao`, 'GET', undefined, auth);
      await until(() => /"method":"GET","url":"\/v1\/fiscal\/configuracao"/.test(run.output()));
      const exited = stopProcess(run.child);
      // Answered from the read model as it is once the wait times out: PostgreSQL was still there.
      expect((await inFlight).status).toBe(200);
      expect(await exited).toBe(0);
      if (!run.child.stdout!.closed) await once(run.child.stdout!, 'close');
      const steps = stoppedSteps(run.output());
      expect(steps).toEqual(['api', 'schema validator', 'projections', 'event store', 'database pool', 'embedded PostgreSQL']);
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
      expect(postgresProcessesOn(dataDir)).toEqual([]);
    } finally {
      await stopProcess(run.child);
    }
  }, 300_000);
  it('on SIGTERM an upload still being sent completes (201), readiness fails at once, and the process exits 0 with PostgreSQL stopped', async () => {
    // Issue 17, point 5. Every service in the process, as the embedded default runs, and the ops server on METRICS_PORT.
    const run = await startUntil(builtEntry('services/server/dist/main.js'), { ...env, METRICS_PORT: '0' }, ready, 120_000);
    const [, url, key] = run.match;
    const ops = /ops: (http:\/\/\S+)/.exec(run.output())![1]!;
    try {
      const boundary = 'frete-shutdown-test';
      const xml = nfeSample('41170706117473000150550010000463202612756525-procNFe.xml');
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="arquivos[]"; filename="nfe.xml"\r\nContent-Type: application/xml\r\n\r\n`,
        ),
        xml,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const half = Math.floor(body.length / 2);
      const upload = http.request(`${url}/v1/fiscal/nfe/importacoes`, {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
      });
      const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
        upload.on('response', (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        upload.on('error', reject);
      });
      upload.write(body.subarray(0, half));
      // The server has the request (its headers and the first half of the body) before the signal.
      await until(() => /"method":"POST","url":"\/v1\/fiscal\/nfe\/importacoes"/.test(run.output()));
      const exited = new Promise<number | null>((resolve) => run.child.once('exit', (c) => resolve(c)));
      run.child.kill('SIGTERM');
      await until(() => run.output().includes('SIGTERM: stopping'));

      // Draining: still live, no longer ready (the upload holds the API's stop, so the ops server is still up).
      expect((await request(`${ops}/health/live`, 'GET')).status).toBe(200);
      const readiness = await request(`${ops}/health/ready`, 'GET');
      expect({ status: readiness.status, started: readiness.body.checks.started }).toEqual({
        status: 503,
        started: { ok: false, detail: 'starting or shutting down' },
      });

      upload.end(body.subarray(half));
      const res = await answered;
      expect({ status: res.status, nfes: JSON.parse(res.body).data?.total_nfes }).toEqual({ status: 201, nfes: 1 });
      expect(await exited).toBe(0);
      if (!run.child.stdout!.closed) await once(run.child.stdout!, 'close');
      const steps = stoppedSteps(run.output());
      expect(steps).toEqual([
        'api',
        'distribuicao-schedule',
        'webhooks-dispatcher',
        'distribuicao-processor',
        'webhooks-processor',
        'payout-processor',
        'emission-processor',
        'projector',
        'schema validator',
        'ops server',
        'projections',
        'event store',
        'database pool',
        'embedded PostgreSQL',
      ]);
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
      expect(postgresProcessesOn(dataDir)).toEqual([]);
    } finally {
      await stopProcess(run.child);
    }
  }, 300_000);
});

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Issue 11, defect 7: as root, embedded PostgreSQL runs as the `postgres` user; a DATA_DIR (or checkout) inside a
 * folder other users cannot enter (`mktemp -d`, /root) made initdb die with a bare error. It now fails at once
 * saying what to do, and doing it works.
 */
const describeAsRoot = process.getuid?.() === 0 ? describe : describe.skip;
describeAsRoot('embedded default started by root from a folder other users cannot enter', () => {
  const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-0700-'));
  const env = semConfiguracao(path.join(outer, 'data'));
  afterAll(() => fs.rmSync(outer, { recursive: true, force: true }));

  it('refuses at once naming the folder and what to do; doing what it says (chmod o+x) starts it', async () => {
    expect(fs.statSync(outer).mode & 0o777).toBe(0o700);
    const entry = builtEntry('services/server/dist/main.js');
    const refused = await runNode(entry, [], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the 'postgres' user, who cannot enter ${outer} (mode 0700)`);
    expect(refused.stderr).toContain(`chmod o+x ${outer}`);
    expect(refused.stderr).not.toMatch(/EACCES|init script exited|\n\s+at /);

    fs.chmodSync(outer, 0o701);
    const started = await startUntil(entry, env, /API: (http:\/\/[^\s]+)\/v1/, 120_000);
    try {
      expect((await request(`${started.match[1]}/health`, 'GET')).status).toBe(200);
    } finally {
      expect(await stopProcess(started.child)).toBe(0);
    }
  }, 300_000);
});
