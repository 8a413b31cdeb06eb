import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { announceRunningService, chooseRunningService, type RunningService, runningServices, runningServicesDir } from '@frete/platform';

/** Issue 28, point 3: a server on embedded PostgreSQL announces itself, so that `pnpm ops` run elsewhere finds its database. */
describe('running services (what pnpm ops finds without DATA_DIR)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frete-running-'));
  const env = { FRETE_RUN_DIR: dir };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const service = (over: Partial<RunningService>): RunningService => ({
    pid: process.pid,
    environment: 'homologacao',
    data_dir: '/srv/a',
    api: 'http://127.0.0.1:3000',
    started_at: '2026-11-29T10:00:00.000Z',
    ...over,
  });

  it('lives in .data/running of the checkout unless FRETE_RUN_DIR says otherwise', () => {
    expect(runningServicesDir({})).toBe(path.resolve(__dirname, '..', '..', '.data', 'running'));
    expect(runningServicesDir(env)).toBe(dir);
  });

  it('is found while the process runs, withdrawn by its stop, and a dead process’s announcement is dropped', () => {
    const withdraw = announceRunningService(service({}), env);
    expect(runningServices(env)).toEqual([service({})]);
    expect((fs.statSync(path.join(dir, `${process.pid}.json`)).mode & 0o777).toString(8)).toBe('600');
    withdraw();
    expect(runningServices(env)).toEqual([]);

    // A process that ended without withdrawing (killed): its pid is gone, so is its announcement.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.writeFileSync(path.join(dir, `${dead}.json`), JSON.stringify(service({ pid: Number(dead) })));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not an announcement');
    expect(runningServices(env)).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('chooses the one on the default folder, else the only one (of the environment asked for), else none; never guesses among several', () => {
    const a = service({ pid: 1, data_dir: '/srv/a' });
    const b = service({ pid: 2, data_dir: '/srv/b', environment: 'producao' });
    const wanted = { dataDir: '/work/.data/homologacao', environment: null };
    expect(chooseRunningService([], wanted)).toEqual({ kind: 'none' });
    expect(chooseRunningService([a], wanted)).toEqual({ kind: 'running', service: a });
    expect(chooseRunningService([a, b], wanted)).toEqual({ kind: 'ambiguous', services: [a, b] });
    expect(chooseRunningService([a, b], { dataDir: '/srv/b/', environment: null })).toEqual({ kind: 'running', service: b });
    expect(chooseRunningService([a, b], { ...wanted, environment: 'producao' })).toEqual({ kind: 'running', service: b });
    expect(chooseRunningService([b], { ...wanted, environment: 'homologacao' })).toEqual({ kind: 'none' });
  });
});
