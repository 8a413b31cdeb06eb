import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

// Imported by jest's global setup and teardown as well as by test files: node built-ins only.

const root = path.join(__dirname, '..', '..');
const startScript = path.join(root, 'deploy', 'kafka', 'start.sh');
const stopScript = path.join(root, 'deploy', 'kafka', 'stop.sh');
/** Test runs start their brokers under here, one run dir each (config, data, log, pid), so that two jest runs in one
 * checkout do not share (and stop) one broker. */
const TEST_KAFKA_DIR = path.join(root, '.data', 'test-kafka');

declare global {
  // Set by global setup, read by global teardown (jest may load this module twice: keep it on globalThis).
  var __KAFKA_RUN_DIR__: string | undefined;
}

/** The brokers of the Kafka the tests use, or undefined when there is none (see kafkaSkipReason). */
export function kafkaBrokers(): string | undefined {
  const brokers = process.env.KAFKA_BROKERS?.trim();
  return brokers ? brokers : undefined;
}

/** Why the Kafka suites are skipped, when there is no broker. */
export function kafkaSkipReason(): string {
  return process.env.KAFKA_SKIP_REASON ?? 'KAFKA_BROKERS is not set and no broker was started';
}

/**
 * A describe block that needs a Kafka broker. Without one it shows as a skipped test that names the reason, never as
 * a silent pass; with REQUIRE_KAFKA=1 (CI) it fails instead.
 */
export function describeKafka(name: string, body: (brokers: string) => void): void {
  const brokers = kafkaBrokers();
  if (brokers) {
    describe(name, () => body(brokers));
  } else if (process.env.REQUIRE_KAFKA === '1') {
    describe(name, () => {
      it('has a Kafka broker (REQUIRE_KAFKA=1)', () => {
        throw new Error(`REQUIRE_KAFKA=1 but there is no broker: ${kafkaSkipReason()}`);
      });
    });
  } else {
    describe(name, () => {
      it.skip(`skipped: ${kafkaSkipReason()}`, () => undefined);
    });
  }
}

const onPath = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

const lastLines = (text: string, n: number): string => text.trim().split('\n').slice(-n).join('\n');

/** Is a broker of this run dir alive? (Its pid file names a live `kafka.Kafka` process with this dir's config.) */
function brokerAlive(runDir: string): boolean {
  try {
    const pid = Number(readFileSync(path.join(runDir, 'kafka.pid'), 'utf8').trim());
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path.join(runDir, 'server.properties'));
  } catch {
    return false;
  }
}

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Run dirs of test runs that ended without their teardown (their jest process is gone): stop and remove them. */
function removeStaleRunDirs(): void {
  if (!existsSync(TEST_KAFKA_DIR)) return;
  for (const entry of readdirSync(TEST_KAFKA_DIR)) {
    const owner = /^run-(\d+)$/.exec(entry);
    if (!owner || processAlive(Number(owner[1]))) continue;
    stopSync(path.join(TEST_KAFKA_DIR, entry));
  }
}

function stopSync(runDir: string): void {
  spawnSync('bash', [stopScript], { env: { ...process.env, KAFKA_RUN_DIR: runDir }, stdio: 'ignore', timeout: 60_000 });
  rmSync(runDir, { recursive: true, force: true });
}

/**
 * Jest global setup: with KAFKA_BROKERS set, use that broker. Otherwise, when java and mvn are on PATH, start a local
 * broker with deploy/kafka/start.sh (a run dir of its own under .data/test-kafka) and set KAFKA_BROKERS for the
 * workers. When that cannot be done, set KAFKA_SKIP_REASON: the Kafka suites then show as skipped with that reason.
 * Never rejects.
 */
export async function startKafkaIfNeeded(): Promise<void> {
  if (kafkaBrokers()) return;
  const missing = ['java', 'mvn'].filter((c) => !onPath(c));
  if (missing.length > 0) {
    process.env.KAFKA_SKIP_REASON = `KAFKA_BROKERS is not set and ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not on PATH, so no local broker could be started`;
    console.warn(`\n[kafka] Kafka suites skipped: ${process.env.KAFKA_SKIP_REASON}`);
    return;
  }
  removeStaleRunDirs();
  const runDir = path.join(TEST_KAFKA_DIR, `run-${process.pid}`);
  const began = Date.now();
  const result = await new Promise<{ ok: boolean; stdout: string; stderr: string; error?: string }>((resolve) => {
    execFile(
      'bash',
      [startScript],
      {
        cwd: root,
        env: { ...process.env, KAFKA_RUN_DIR: runDir, KAFKA_CLEAN: '1' },
        timeout: 5 * 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ ok: !error, stdout, stderr, error: error?.message }),
    );
  });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  const match = /^KAFKA_BROKERS=(\S+)$/.exec(line);
  if (!result.ok || !match) {
    if (brokerAlive(runDir)) stopSync(runDir);
    process.env.KAFKA_SKIP_REASON = `deploy/kafka/start.sh could not start a broker: ${lastLines(result.stderr || result.error || line, 8)}`;
    console.warn(`\n[kafka] Kafka suites skipped: ${process.env.KAFKA_SKIP_REASON}`);
    return;
  }
  globalThis.__KAFKA_RUN_DIR__ = runDir;
  // If jest ends without global teardown (a failed global setup, an interrupted run), stop the broker on exit anyway.
  process.once('exit', () => {
    if (globalThis.__KAFKA_RUN_DIR__) stopSync(globalThis.__KAFKA_RUN_DIR__);
  });
  process.env.KAFKA_BROKERS = match[1];
  console.log(`\n[kafka] broker at ${match[1]} (${((Date.now() - began) / 1000).toFixed(1)} s to start)`);
}

/** Jest global teardown: stops the broker that startKafkaIfNeeded started (by its pid, through stop.sh). */
export async function stopKafkaIfStarted(): Promise<void> {
  const runDir = globalThis.__KAFKA_RUN_DIR__;
  if (!runDir) return;
  globalThis.__KAFKA_RUN_DIR__ = undefined;
  await new Promise<void>((resolve) => {
    execFile(
      'bash',
      [stopScript],
      { cwd: root, env: { ...process.env, KAFKA_RUN_DIR: runDir }, timeout: 60_000 },
      (error, _stdout, stderr) => {
        if (error) console.warn(`[kafka] stopping the test broker failed: ${lastLines(stderr || error.message, 5)}`);
        else rmSync(runDir, { recursive: true, force: true });
        resolve();
      },
    );
  });
}
