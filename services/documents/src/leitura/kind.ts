/** The kinds of file the document intake accepts, told from the bytes (never from the name or content type). */
export type DocumentKind = 'xml' | 'pdf' | 'zip' | 'desconhecido';

const ZIP_SIGNATURES = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];
const PDF_SIGNATURE = Buffer.from('%PDF-', 'latin1');
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * `PK\x03\x04` (or the end record of an empty archive) is a ZIP; `%PDF-` within the first KiB is a PDF (readers
 * tolerate a short preamble); XML is text whose first character, after an optional UTF-8 BOM and whitespace, is `<`.
 */
export function documentKindOf(content: Buffer): DocumentKind {
  if (ZIP_SIGNATURES.some((sig) => content.subarray(0, 4).equals(sig))) return 'zip';
  if (content.subarray(0, 1024).indexOf(PDF_SIGNATURE) !== -1) return 'pdf';
  let i = content.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
  while (i < content.length && (content[i] === 0x20 || content[i] === 0x09 || content[i] === 0x0a || content[i] === 0x0d)) i++;
  return content[i] === 0x3c ? 'xml' : 'desconhecido';
}

export const CONTENT_TYPES: Record<Exclude<DocumentKind, 'desconhecido'>, string> = {
  xml: 'application/xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
};
