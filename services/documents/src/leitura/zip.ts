import yauzl, { type Entry, type ZipFile } from 'yauzl';

/**
 * Safe reading of an uploaded ZIP, entirely in memory (nothing touches the disk, so entry names never become paths).
 * The central directory is trusted for nothing: yauzl checks each entry's real size against the declared one
 * (`validateEntrySizes`), and the bytes read are capped again here.
 */
export interface ZipLimits {
  /** Entries in the central directory, directories included. */
  maxEntries: number;
  /** Uncompressed size of one entry. */
  maxEntryBytes: number;
  /** Uncompressed size of all entries read. */
  maxTotalBytes: number;
  /** Uncompressed ÷ compressed above which an entry is taken for a bomb... */
  maxRatio: number;
  /** ...when it is at least this big uncompressed (small files may compress very well and are harmless). */
  ratioFloorBytes: number;
}

const MiB = 1024 * 1024;

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 1000,
  maxEntryBytes: 10 * MiB,
  maxTotalBytes: 100 * MiB,
  maxRatio: 100,
  ratioFloorBytes: 1 * MiB,
};

export type ZipErrorCode = 'zip_invalido' | 'zip_limite_excedido' | 'zip_entrada_muito_grande' | 'zip_taxa_de_compressao';

/** The ZIP as a whole cannot be read further. Entries already yielded stay valid. */
export class ZipError extends Error {
  constructor(
    readonly code: ZipErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

export type ZipItem = { name: string; content: Buffer } | { name: string; error: { code: ZipErrorCode; message: string } };

/** Directories and the metadata that archivers add (`__MACOSX/`, `._*`, `.DS_Store`, `Thumbs.db`) are skipped. */
export function isSkippedZipEntry(name: string): boolean {
  if (name.endsWith('/')) return true;
  const base = name.split('/').pop() ?? name;
  return name.startsWith('__MACOSX/') || base.startsWith('._') || base === '.DS_Store' || base === 'Thumbs.db';
}

const open = (buffer: Buffer) =>
  new Promise<ZipFile>((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, autoClose: false }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    );
  });

/** Reads the central directory one entry at a time; an 'error' the ZipFile emits at any time is never left unheard. */
function entryReader(zip: ZipFile) {
  let pending: { resolve: (e: Entry | null) => void; reject: (err: Error) => void } | null = null;
  let failure: Error | null = null;
  zip.on('entry', (entry: Entry) => {
    const p = pending;
    pending = null;
    p?.resolve(entry);
  });
  zip.on('end', () => {
    const p = pending;
    pending = null;
    p?.resolve(null);
  });
  zip.on('error', (err: Error) => {
    failure = err;
    const p = pending;
    pending = null;
    p?.reject(err);
  });
  return () =>
    new Promise<Entry | null>((resolve, reject) => {
      if (failure) return reject(failure);
      pending = { resolve, reject };
      zip.readEntry();
    });
}

async function readEntry(zip: ZipFile, entry: Entry, max: number): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > max) throw new ZipError('zip_entrada_muito_grande', `more than ${max} bytes uncompressed`);
      chunks.push(chunk as Buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/**
 * The entries of a ZIP, in directory order, each with its bytes or the reason it was refused. Refusals of one entry
 * (too big, compressed too well, encrypted, corrupt) do not stop the others; a ZIP that cannot be opened, has too
 * many entries or too much content in all throws `ZipError`.
 */
export async function* zipEntries(buffer: Buffer, limits: ZipLimits = ZIP_LIMITS): AsyncGenerator<ZipItem> {
  let zip: ZipFile;
  try {
    zip = await open(buffer);
  } catch (err) {
    throw new ZipError('zip_invalido', `not a readable ZIP: ${(err as Error).message}`);
  }
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ZipError('zip_limite_excedido', `the ZIP has ${zip.entryCount} entries; at most ${limits.maxEntries} are read`);
    }
    const next = entryReader(zip);
    let total = 0;
    for (;;) {
      let entry: Entry | null;
      try {
        entry = await next();
      } catch (err) {
        throw new ZipError('zip_invalido', `corrupt ZIP directory: ${(err as Error).message}`);
      }
      if (!entry) return;
      const name = entry.fileName;
      if (isSkippedZipEntry(name)) continue;
      const refuse = (code: ZipErrorCode, message: string): ZipItem => ({ name, error: { code, message } });
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        yield refuse(
          'zip_entrada_muito_grande',
          `${entry.uncompressedSize} bytes uncompressed; an entry may have at most ${limits.maxEntryBytes}`,
        );
        continue;
      }
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (entry.uncompressedSize >= limits.ratioFloorBytes && ratio > limits.maxRatio) {
        yield refuse(
          'zip_taxa_de_compressao',
          `compressed ${Math.round(ratio)}:1 (more than ${limits.maxRatio}:1): refused as a possible ZIP bomb`,
        );
        continue;
      }
      if (entry.isEncrypted()) {
        yield refuse('zip_invalido', 'encrypted entries are not read');
        continue;
      }
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) {
        throw new ZipError(
          'zip_limite_excedido',
          `more than ${limits.maxTotalBytes} bytes uncompressed in all; entries from ${name} on were not read`,
        );
      }
      try {
        yield { name, content: await readEntry(zip, entry, Math.min(limits.maxEntryBytes, entry.uncompressedSize)) };
      } catch (err) {
        if (err instanceof ZipError) yield refuse(err.code, err.message);
        else yield refuse('zip_invalido', `cannot read the entry: ${(err as Error).message}`);
      }
    }
  } finally {
    zip.close();
  }
}
