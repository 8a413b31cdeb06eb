import fs from 'node:fs';
import path from 'node:path';
import { type Environment } from '@frete/contracts';

/**
 * What a server of this checkout running on embedded PostgreSQL announces while it runs, so that the operator tool
 * started without its DATA_DIR (another shell, another folder) opens that database rather than a new empty one.
 */
export interface RunningService {
  pid: number;
  environment: Environment;
  /** Its DATA_DIR: the embedded PostgreSQL (its `postgres.json` says the port) and the secrets key. */
  data_dir: string;
  /** The API's address, or null when this process does not serve it. */
  api: string | null;
  started_at: string;
}

/**
 * Where running services announce themselves: `FRETE_RUN_DIR`, else `.data/running` in the checkout. Found from this
 * file's place (`src` or `dist`, both four levels down), not from the working directory, so that a command run from
 * another folder finds it too.
 */
export function runningServicesDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.FRETE_RUN_DIR || path.join(__dirname, '..', '..', '..', '..', '.data', 'running'));
}

/** Announces this process; the returned function withdraws the announcement (also done when the process exits). */
export function announceRunningService(service: RunningService, env: NodeJS.ProcessEnv = process.env): () => void {
  const dir = runningServicesDir(env);
  const file = path.join(dir, `${service.pid}.json`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(service, null, 2)}\n`, { mode: 0o600 });
  const withdraw = () => {
    fs.rmSync(file, { force: true });
    process.off('exit', withdraw);
  };
  // A process that exits without stopping its services (an error, a stop past its time bound) still withdraws.
  process.on('exit', withdraw);
  return withdraw;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process is there, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The services announced whose process still runs, newest first; announcements left by a killed process are removed. */
export function runningServices(env: NodeJS.ProcessEnv = process.env): RunningService[] {
  const dir = runningServicesDir(env);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^\d+\.json$/.test(n));
  } catch {
    return [];
  }
  const found: RunningService[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let service: RunningService;
    try {
      service = JSON.parse(fs.readFileSync(file, 'utf8')) as RunningService;
    } catch {
      continue; // being written, or not ours
    }
    if (alive(service.pid)) found.push(service);
    else fs.rmSync(file, { force: true });
  }
  return found.sort((a, b) => b.started_at.localeCompare(a.started_at));
}

/** Which running service a command started without DATA_DIR nor DATABASE_URL works on. */
export type ServiceChoice =
  | { kind: 'running'; service: RunningService }
  | { kind: 'none' }
  | { kind: 'ambiguous'; services: RunningService[] };

/**
 * The one running on the folder the command would use anyway (the default DATA_DIR), else the only one running (in
 * the environment asked for, when APP_ENVIRONMENT is set); with several and none on the default folder, no guess.
 */
export function chooseRunningService(
  services: RunningService[],
  wanted: { dataDir: string; environment: Environment | null },
): ServiceChoice {
  const candidates = services.filter((s) => wanted.environment === null || s.environment === wanted.environment);
  const onDefault = candidates.find((s) => path.resolve(s.data_dir) === path.resolve(wanted.dataDir));
  if (onDefault) return { kind: 'running', service: onDefault };
  if (candidates.length === 1) return { kind: 'running', service: candidates[0]! };
  if (candidates.length === 0) return { kind: 'none' };
  return { kind: 'ambiguous', services: candidates };
}
