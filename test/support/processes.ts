import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');

/** The built entry points: the test command builds before jest runs. */
export function builtEntry(relative: string): string {
  const file = path.join(ROOT, relative);
  if (!fs.existsSync(file)) throw new Error(`${relative} is missing: run 'pnpm build' first (pnpm test does)`);
  return file;
}

export async function runNode(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [entry, ...args], { env: { ...process.env, ...env }, cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  return { code, stdout, stderr };
}

/**
 * The environment of `pnpm start` with no configuration (embedded PostgreSQL in `dataDir`, every service in one
 * process, any free port), whatever the test's own environment sets: its configuration variables are emptied.
 * `extra` adds or replaces variables.
 */
export const semConfiguracao = (dataDir: string, extra: Record<string, string> = {}): Record<string, string> => ({
  DATA_DIR: dataDir,
  PORT: '0',
  DATABASE_URL: '',
  EVENTSTORE_URL: '',
  KAFKA_BROKERS: '',
  SECRETS_KEY: '',
  APP_ENVIRONMENT: '',
  ...extra,
});

/** Starts a long-running process and waits until a line of its output matches. */
export async function startUntil(
  entry: string,
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  const child = spawn(process.execPath, [entry], { env: { ...process.env, ...env }, cwd: ROOT });
  let out = '';
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after ${timeoutMs} ms:\n${out.slice(-3000)}`)), timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${out.slice(-3000)}`)));
  });
  return { child, match, output: () => out };
}

export async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
