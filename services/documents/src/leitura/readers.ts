import path from 'node:path';
import { type Worker } from 'node:worker_threads';
import {
  type CteLido,
  CteReadError,
  type CteReadErrorCode,
  type NfeLida,
  NfeReadError,
  type NfeReadErrorCode,
  documentKeysOfPages,
  readCte,
  readNfe,
} from '@frete/domain';
import { startModuleWorker } from '@frete/platform';
import { PdfTextError } from './pdf-text';
// Types only: loading the worker's module here would run it.
import type { ReaderJob, ReaderReply } from './readers-worker';

/**
 * The fiscal readers for what clients send: CT-e and NF-e XML, and the access keys in a DANFE's text. Reading is
 * linear but not cheap (a well-formed 2 MB XML of small elements takes seconds to parse), so only a document of
 * up to `READ_IN_PLACE_MAX` characters is read on the event loop (a few milliseconds). A larger one is read in a
 * worker thread, one document at a time; when it takes longer than the time budget or more memory than the
 * ceiling, the worker is terminated, that document refused and the next one gets a new worker.
 */
export const READ_IN_PLACE_MAX = 64 * 1024;
export const READ_TIMEOUT_MS = 20_000;
const MAX_HEAP_MB = 512;

interface Pending {
  id: number;
  job: ReaderJob;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

/** The refusal of a document that costs too much to read, in the reader's own error class. */
function tooCostly(job: ReaderJob, why: string): Error {
  switch (job.kind) {
    case 'cte':
      return new CteReadError('xml_hostil', `the XML ${why}`);
    case 'nfe':
      return new NfeReadError('xml_hostil', `the XML ${why}`);
    case 'chaves':
      return new PdfTextError('tempo_esgotado', `the PDF's text ${why}`);
  }
}

function errorOf(reply: Extract<ReaderReply, { ok: false }>): Error {
  const refusal = reply.refusal;
  if (refusal?.reader === 'cte') return new CteReadError(refusal.code as CteReadErrorCode, refusal.message);
  if (refusal?.reader === 'nfe') return new NfeReadError(refusal.code as NfeReadErrorCode, refusal.message);
  return new Error(`the document reader failed: ${reply.message}`);
}

export interface DocumentReadersOptions {
  /** Wall-clock budget of one document in the worker. */
  timeoutMs?: number;
}

/** The readers with their worker thread; the service uses the functions below, which share one. */
export class DocumentReaders {
  private worker: Worker | null = null;
  private current: Pending | null = null;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private readonly timeoutMs: number;

  constructor(options: DocumentReadersOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
  }

  /** `readCte` off the event loop when the text is long; refusals are the same `CteReadError`s. */
  async readCte(text: string): Promise<CteLido> {
    if (text.length <= READ_IN_PLACE_MAX) return readCte(text);
    return (await this.run({ kind: 'cte', text })) as CteLido;
  }

  /** `readNfe` off the event loop when the text is long; refusals are the same `NfeReadError`s. */
  async readNfe(text: string): Promise<NfeLida> {
    if (text.length <= READ_IN_PLACE_MAX) return readNfe(text);
    return (await this.run({ kind: 'nfe', text })) as NfeLida;
  }

  /** `documentKeysOfPages` off the event loop when the text is long. */
  async documentKeysOfPages(pages: string[]): Promise<string[]> {
    if (pages.reduce((n, page) => n + page.length, 0) <= READ_IN_PLACE_MAX) return documentKeysOfPages(pages);
    return (await this.run({ kind: 'chaves', pages })) as string[];
  }

  /** Stops the worker; documents waiting for it fail. */
  close(): void {
    const closed = () => new Error('the document readers were closed');
    for (const pending of this.queue.splice(0)) pending.reject(closed());
    if (this.worker) this.fail(this.worker, closed);
  }

  private run(job: ReaderJob): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.current || this.queue.length === 0) return;
    const pending = this.queue.shift()!;
    this.current = pending;
    const worker = this.ensureWorker();
    worker.ref();
    pending.timer = setTimeout(
      () => this.fail(worker, (job) => tooCostly(job, `could not be read in ${this.timeoutMs / 1000} s`)),
      this.timeoutMs,
    );
    worker.postMessage({ id: pending.id, job: pending.job });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startModuleWorker(path.join(__dirname, 'readers-worker'), { resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB } });
    worker.on('message', (reply: ReaderReply) => {
      const pending = this.current;
      if (!pending || pending.id !== reply.id) return;
      clearTimeout(pending.timer);
      this.current = null;
      if (this.queue.length === 0) worker.unref();
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(errorOf(reply));
      this.next();
    });
    worker.on('error', (error: Error & { code?: string }) =>
      this.fail(worker, (job) =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooCostly(job, 'needs more memory to read than is accepted') : error,
      ),
    );
    worker.on('exit', (code) => this.fail(worker, () => new Error(`the document reader stopped (exit ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** The worker is stuck on the current document, or gone: that document fails, the next ones get a new worker. */
  private fail(worker: Worker, error: (job: ReaderJob) => Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
    const pending = this.current;
    this.current = null;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(error(pending.job));
    }
    this.next();
  }
}

const shared = new DocumentReaders();

export const readCteDocument = (text: string): Promise<CteLido> => shared.readCte(text);
export const readNfeDocument = (text: string): Promise<NfeLida> => shared.readNfe(text);
export const documentKeysOfPdfText = (pages: string[]): Promise<string[]> => shared.documentKeysOfPages(pages);
