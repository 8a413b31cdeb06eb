import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { oneAnswer } from '@frete/platform';

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

export async function pdfPagesText(content: Buffer, options: PdfTextOptions = {}): Promise<string[]> {
  const { maxPages = 20, timeoutMs = 15_000, maxHeapMb = 256 } = options;
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { url: pdfjsLocation(), data: new Uint8Array(content), maxPages },
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return oneAnswer<WorkerReply, string[]>(worker, {
    timeoutMs,
    timedOut: () => new PdfTextError('tempo_esgotado', `the PDF could not be read in ${timeoutMs} ms`),
    reply: (reply) => {
      if (reply.ok) return reply.pages;
      throw new PdfTextError('ilegivel', `the PDF cannot be read: ${reply.error}`);
    },
    error: (err) => new PdfTextError('ilegivel', `the PDF cannot be read: ${err.message}`),
    exited: (code) => new PdfTextError('ilegivel', `the PDF reader stopped (exit ${code})`),
  });
}
