import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Text of the first pages of an untrusted PDF, extracted by pdf.js in a worker thread. The worker isolates the
 * parsing: it has its own heap with a ceiling, no eval (`isEvalSupported: false`), no fonts loaded, and it is
 * terminated when it takes too long. pdf.js is ESM only; the worker imports it with a dynamic `import()`, which also
 * keeps it out of CommonJS hosts such as jest's module system.
 */
export interface PdfTextOptions {
  maxPages?: number;
  timeoutMs?: number;
  maxHeapMb?: number;
}

export type PdfTextFailure = 'ilegivel' | 'tempo_esgotado';

export class PdfTextError extends Error {
  constructor(
    readonly reason: PdfTextFailure,
    message: string,
  ) {
    super(message);
    this.name = 'PdfTextError';
  }
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const pdfjs = await import(workerData.url);
  const pdf = await pdfjs.getDocument({
    data: workerData.data, isEvalSupported: false, verbosity: 0, useSystemFonts: false, disableFontFace: true,
  }).promise;
  const pages = [];
  const n = Math.min(pdf.numPages, workerData.maxPages);
  for (let i = 1; i <= n; i++) {
    const page = await pdf.getPage(i);
    const content = await page.getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\\n' : ' ') : '')).join(''));
    page.cleanup();
  }
  await pdf.destroy();
  parentPort.postMessage({ ok: true, pages });
})().catch((err) => parentPort.postMessage({ ok: false, error: String((err && err.message) || err) }));
`;

let pdfjsUrl: string | null = null;
const pdfjsLocation = () => (pdfjsUrl ??= pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href);

type WorkerReply = { ok: true; pages: string[] } | { ok: false; error: string };

export function pdfPagesText(content: Buffer, options: PdfTextOptions = {}): Promise<string[]> {
  const { maxPages = 20, timeoutMs = 15_000, maxHeapMb = 256 } = options;
  return new Promise<string[]>((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { url: pdfjsLocation(), data: new Uint8Array(content), maxPages },
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => settle(() => reject(new PdfTextError('tempo_esgotado', `the PDF could not be read in ${timeoutMs} ms`))),
      timeoutMs,
    );
    worker.on('message', (reply: WorkerReply) =>
      settle(() => (reply.ok ? resolve(reply.pages) : reject(new PdfTextError('ilegivel', `the PDF cannot be read: ${reply.error}`)))));
    worker.on('error', (err) => settle(() => reject(new PdfTextError('ilegivel', `the PDF cannot be read: ${err.message}`))));
    worker.on('exit', (code) => settle(() => reject(new PdfTextError('ilegivel', `the PDF reader stopped (exit ${code})`))));
  });
}
