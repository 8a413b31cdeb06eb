import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtEntry, ROOT, semConfiguracao, startUntil, stopProcess } from '../support/processes';

jest.setTimeout(180_000);

/**
 * Issue 28, point 2: started at a terminal (a pseudo-terminal from util-linux `script`), the server prints a banner
 * whose `curl` works pasted into bash as it is, and log lines for a person instead of JSON.
 */
describe('the server started at a terminal', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-terminal-'));
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-terminal-run-'));
  let script: ChildProcess | null = null;
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  it('prints the banner with a curl that pastes, then readable lines; the announcement goes with the stop', async () => {
    const env = { ...process.env, ...semConfiguracao(dataDir, { FRETE_RUN_DIR: runDir, NO_COLOR: '1' }) };
    const command = `${process.execPath} ${builtEntry('services/server/dist/main.js')}`;
    script = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    script.stdout!.on('data', (d: Buffer) => (out += d.toString().replace(/\r/g, '')));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner:\n${out}`)), 150_000);
      const check = setInterval(() => {
        if (!out.includes('Log lines follow')) return;
        clearTimeout(timer);
        clearInterval(check);
        resolve();
      }, 200);
      script!.on('exit', () => reject(new Error(`exited:\n${out}`)));
    });
    expect(out).not.toMatch(/^\{"level"/m);
    expect(out).toMatch(/^frete-fiscal is running · homologacao \(sandbox\)$/m);
    expect(out).toContain(`embedded PostgreSQL in ${dataDir}`);
    expect(out).toMatch(/^ {2}docs {6}http:\/\/127\.0\.0\.1:\d+\/v1\/docs$/m);
    expect(out).toMatch(/^\d\d:\d\d:\d\d {2}info {3}Server listening at http/m);
    const curl = out.match(/^ {2}try {7}(curl .+)$/m)![1]!;
    const pasted = spawnSync('bash', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`], { encoding: 'utf8' });
    expect(pasted.stdout).toBe('200');

    const [announced] = fs.readdirSync(runDir);
    const pid = Number(announced!.replace('.json', ''));
    const exited = new Promise((resolve) => script!.once('exit', resolve));
    process.kill(pid, 'SIGTERM');
    await exited;
    expect(out).toMatch(/^\d\d:\d\d:\d\d {2}info {3}stopped api {2}step=api$/m);
    expect(fs.readdirSync(runDir)).toEqual([]);
  });

  it('serves even where it cannot announce itself (a read-only checkout), saying what pnpm ops then needs', async () => {
    const blocked = path.join(runDir, 'a-file');
    fs.writeFileSync(blocked, '');
    const env = semConfiguracao(dataDir, { FRETE_RUN_DIR: path.join(blocked, 'running') });
    const started = await startUntil(builtEntry('services/server/dist/main.js'), env, /API key \(all scopes\)/, 150_000);
    try {
      const warned = started
        .output()
        .split('\n')
        .filter((l) => l.includes('not announced'))
        .map((l) => JSON.parse(l) as { level: string; msg: string });
      expect(warned).toEqual([expect.objectContaining({ level: 'warn', msg: `not announced to pnpm ops (it needs DATA_DIR=${dataDir})` })]);
    } finally {
      expect(await stopProcess(started.child)).toBe(0);
    }
  });
});
