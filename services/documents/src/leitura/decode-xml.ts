import { TextDecoder } from 'node:util';
import { CteReadError } from '@frete/domain';

const BOM = /^\uFEFF/;

/**
 * The text of XML bytes in the encoding their declaration names (UTF-8 when it names none), without a BOM. Archived
 * XML is kept byte for byte, so a delivered ISO-8859-1 cteProc must be read in its own encoding.
 */
export function decodeXml(bytes: Buffer): string {
  const declared = /^(?:\uFEFF)?\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    bytes.subarray(0, 200).toString('latin1'),
  )?.[1];
  const label = declared?.toLowerCase() ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw new CteReadError('xml_malformado', `the XML declares an unknown encoding '${declared}'`);
  }
  try {
    return decoder.decode(bytes).replace(BOM, '');
  } catch {
    throw new CteReadError('xml_malformado', `the XML bytes are not valid ${label}`);
  }
}
