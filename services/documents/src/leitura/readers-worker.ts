import { parentPort } from 'node:worker_threads';
import { CteReadError, NfeReadError, documentKeysOfPages, readCte, readNfe } from '@frete/domain';

/** The worker thread of `readers.ts`: reads one document per message, in the order they come. */

export type ReaderJob = { kind: 'cte'; text: string } | { kind: 'nfe'; text: string } | { kind: 'chaves'; pages: string[] };

export type ReaderReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; refusal: { reader: 'cte' | 'nfe'; code: string; message: string } | null; message: string };

function run(job: ReaderJob): unknown {
  switch (job.kind) {
    case 'cte':
      return readCte(job.text);
    case 'nfe':
      return readNfe(job.text);
    case 'chaves':
      return documentKeysOfPages(job.pages);
  }
}

parentPort?.on('message', ({ id, job }: { id: number; job: ReaderJob }) => {
  let reply: ReaderReply;
  try {
    reply = { id, ok: true, value: run(job) };
  } catch (error) {
    const refusal =
      error instanceof CteReadError
        ? { reader: 'cte' as const, code: error.code, message: error.message }
        : error instanceof NfeReadError
          ? { reader: 'nfe' as const, code: error.code, message: error.message }
          : null;
    reply = { id, ok: false, refusal, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
