// Builds what is out of date before `pnpm start` and `pnpm ops` run the built code, saying what it does on stderr
// (stdout stays the command's own: JSON for `pnpm ops`). Plain JavaScript: it runs before anything is built.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** How long each project took at its last build, for the next estimate (kept out of the tree). */
const TIMES = path.join(ROOT, 'node_modules', '.cache', 'frete-fiscal', 'build-times.json');
/**
 * A whole build on two idle cores (measured: 34 s; about three minutes when other work shares them), for the first
 * start, before any time is recorded.
 */
const FIRST_BUILD_S = 40;
const SKIPPED = new Set(['dist', 'node_modules', '.data', 'coverage']);

/** The projects of `tsc -b tsconfig.build.json`, in its order: their folder, their name, their build info file. */
function projects() {
  const build = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8'));
  return build.references.map((ref) => {
    const dir = path.dirname(path.join(ROOT, ref.path));
    return { dir, name: path.relative(ROOT, dir), info: path.join(dir, 'dist', '.tsbuildinfo') };
  });
}

const mtime = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/** The newest modification under a folder (its sources, configuration, tests: more than tsc reads, never less). */
function newest(dir) {
  let max = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    const t = entry.isDirectory() ? newest(full) : (mtime(full) ?? 0);
    if (t > max) max = t;
  }
  return max;
}

/**
 * The projects whose build info is missing or older than a file of theirs or the shared configuration. A file newer
 * than what tsc reads sends the build to tsc, which then finds it up to date in about two seconds: never a stale start.
 */
export function staleProjects() {
  const shared = Math.max(...['tsconfig.base.json', 'tsconfig.build.json'].map((f) => mtime(path.join(ROOT, f)) ?? 0));
  return projects().filter(({ dir, info }) => {
    const built = mtime(info);
    return built === null || built < Math.max(shared, newest(dir));
  });
}

const readTimes = () => {
  try {
    return JSON.parse(fs.readFileSync(TIMES, 'utf8'));
  } catch {
    return {};
  }
};

/**
 * Runs `tsc -b` when a project is out of date, one line per project built with its time; nothing when all are up to
 * date. Resolves when the build succeeded; exits the process with tsc's errors otherwise.
 */
export async function buildIfStale({ what = 'the service', say = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const stale = staleProjects();
  if (stale.length === 0) return;
  const times = readTimes();
  const first = stale.length === projects().length && stale.every(({ info }) => mtime(info) === null);
  const known = stale.every(({ name }) => typeof times[name] === 'number');
  const estimate = first && !known ? FIRST_BUILD_S : Math.round(stale.reduce((s, { name }) => s + (times[name] ?? 5), 0));
  say(
    first
      ? `frete-fiscal: building the code before ${what} starts (first start: about ${estimate} s; later starts build only what changed)…`
      : `frete-fiscal: building what changed (${stale.map((p) => p.name).join(', ')}: about ${estimate} s)…`,
  );
  const tsc = createRequire(path.join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  const child = spawn(process.execPath, [tsc, '-b', 'tsconfig.build.json', '--verbose'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = Date.now();
  let current = null;
  let since = started;
  const errors = [];
  const finish = () => {
    if (!current) return;
    const s = (Date.now() - since) / 1000;
    times[current] = Math.round(s * 10) / 10;
    say(`  built ${current} (${s.toFixed(1)} s)`);
    current = null;
  };
  let rest = '';
  const onData = (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      // `--verbose` says "Building project '/…/contracts/tsconfig.build.json'..." as each project starts.
      const building = line.match(/Building project '(.+?)'/);
      if (building) {
        finish();
        current = path.relative(ROOT, path.dirname(path.resolve(ROOT, building[1])));
        since = Date.now();
        say(`  building ${current}…`);
      } else if (/error TS\d+/.test(line) || (errors.length > 0 && /^\s/.test(line))) {
        errors.push(line);
      }
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  if (rest) onData('\n');
  finish();
  if (code !== 0) {
    say(errors.length > 0 ? errors.join('\n') : `tsc -b exited with ${code}`);
    say(`frete-fiscal: the build failed (${errors.length} error lines above): ${what} does not start.`);
    process.exit(1);
  }
  // A project tsc found up to date keeps its old build info while a file tsc does not read (a test) is newer: dated
  // at the build's start, the next start finds it up to date without asking tsc (edits made since still count).
  const at = new Date(started);
  for (const { info } of projects()) if ((mtime(info) ?? Infinity) < started) fs.utimesSync(info, at, at);
  fs.mkdirSync(path.dirname(TIMES), { recursive: true });
  fs.writeFileSync(TIMES, JSON.stringify(times, null, 2));
  say(`frete-fiscal: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
