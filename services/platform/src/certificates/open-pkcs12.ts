import { availableParallelism } from 'node:os';
import path from 'node:path';
import { startModuleWorker } from '../workers/module-worker';
import { oneAnswer } from '../workers/one-answer';
import { Pkcs12Error, type Pkcs12Contents } from './pkcs12';
// Types only: loading the worker's module here would run it.
import type { Pkcs12WorkerInput, Pkcs12WorkerReply } from './pkcs12-worker';

/**
 * Opens a PKCS#12 off the event loop: `readPkcs12` runs in a worker thread of its own, with its iteration budget, a
 * heap ceiling and a time budget after which the worker is terminated. Every certificate the service opens (the
 * upload's check, the signing key of the vault) comes through here, so no file can hold up other requests.
 */

export interface OpenPkcs12Options {
  /** Wall-clock budget of one open, from the worker's start. */
  timeoutMs?: number;
}

/** Beyond any certificate a real issuer writes (those open in milliseconds; the iteration limits in seconds). */
export const PKCS12_OPEN_TIMEOUT_MS = 30_000;
const MAX_HEAP_MB = 128;

/** Opens run side by side up to this many; more wait their turn, so a burst of uploads cannot exhaust memory. */
const MAX_PARALLEL = Math.max(2, availableParallelism());
let running = 0;
const waiting: Array<() => void> = [];

async function turn(): Promise<() => void> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

export async function openPkcs12(file: Buffer, password: string, options: OpenPkcs12Options = {}): Promise<Pkcs12Contents> {
  const release = await turn();
  try {
    return await inWorker(file, password, options.timeoutMs ?? PKCS12_OPEN_TIMEOUT_MS);
  } finally {
    release();
  }
}

function inWorker(file: Buffer, password: string, timeoutMs: number): Promise<Pkcs12Contents> {
  const data: Pkcs12WorkerInput = { file: new Uint8Array(file), password };
  const worker = startModuleWorker(path.join(__dirname, 'pkcs12-worker'), {
    data,
    resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB },
  });
  const tooCostly = (message: string) => new Pkcs12Error('too_costly', message);
  return oneAnswer<Pkcs12WorkerReply, Pkcs12Contents>(worker, {
    timeoutMs,
    timedOut: () => tooCostly(`the certificate file could not be opened in ${timeoutMs / 1000} s`),
    reply: (reply) => {
      if (reply.ok) return reply.contents;
      throw new Pkcs12Error(reply.reason, reply.message);
    },
    // Running out of its heap is the file's doing too; any other failure of the worker is the service's.
    error: (err) =>
      err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooCostly('the certificate file needs more memory to open than is accepted') : err,
    exited: (code) => new Error(`the certificate worker stopped (exit ${code}) without an answer`),
  });
}
