import { parentPort, workerData } from 'node:worker_threads';
import { Pkcs12Error, type Pkcs12Contents, type Pkcs12ErrorReason, readPkcs12 } from './pkcs12';

/** The worker thread of `openPkcs12`: opens one file and answers once. */

export interface Pkcs12WorkerInput {
  file: Uint8Array;
  password: string;
}

export type Pkcs12WorkerReply = { ok: true; contents: Pkcs12Contents } | { ok: false; reason: Pkcs12ErrorReason; message: string };

function open({ file, password }: Pkcs12WorkerInput): Pkcs12WorkerReply {
  try {
    return { ok: true, contents: readPkcs12(Buffer.from(file.buffer, file.byteOffset, file.byteLength), password) };
  } catch (error) {
    if (error instanceof Pkcs12Error) return { ok: false, reason: error.reason, message: error.message };
    // forge failing in a way readPkcs12 does not foresee is still about the file, not about the service.
    return { ok: false, reason: 'not_pkcs12', message: 'the file is not a PKCS#12 that can be read' };
  }
}

parentPort?.postMessage(open((workerData as { data: Pkcs12WorkerInput }).data));
