import { type FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { CteReadError, type CteLido } from '@frete/domain';
import { decodeXml, readCteDocument } from '@frete/documents';
import { ApiError } from '../../errors';
import { readParts } from '../../multipart';

/** Spec section 8: the CT-e XML is at most 2 MB, and the JSON `xml` field at most 2097152 characters. */
export const MAX_CTE_XML = 2 * 1024 * 1024;

/** OpenAPI description of the two ways a CT-e XML is sent; validation is done by `readCteUpload`. */
export const CteUploadBody = {
  content: {
    'application/json': {
      schema: Type.Object(
        {
          xml: Type.String({
            minLength: 1,
            maxLength: MAX_CTE_XML,
            description: 'The `cteProc` or `CTe` XML, raw or in base64 (told apart by the content: raw XML starts with `<`)',
          }),
        },
        { title: 'EnvioCteXml' },
      ),
    },
    'multipart/form-data': {
      schema: Type.Object(
        { arquivo: Type.String({ format: 'binary', description: 'The XML file, at most 2 MB' }) },
        { title: 'EnvioCteArquivo' },
      ),
    },
  },
};

export interface CteUpload {
  /** The bytes as received: what is archived and hashed. */
  bytes: Buffer;
  cte: CteLido;
}

const invalid = (field: string, message: string) => new ApiError('validacao', `${field}: ${message}`, { fields: [{ field, message }] });

const BOM = /^\uFEFF/;
/**
 * Tested on the text without its blanks (base64 may be wrapped in lines): the alphabet and the padding cannot
 * overlap, so the test is one pass. Blanks inside the pattern made it backtrack quadratically on long runs of them.
 */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Raw XML starts with `<` (after a BOM or blanks); anything else must be base64 of an XML. */
export function xmlBytesOf(xml: string): Buffer {
  const head = xml.replace(BOM, '').trimStart();
  if (head.startsWith('<')) return Buffer.from(xml, 'utf8');
  const base64 = xml.replace(/\s+/g, '');
  if (!BASE64.test(base64)) throw invalid('xml', 'neither an XML document nor base64');
  const bytes = Buffer.from(base64, 'base64');
  const start = bytes
    .subarray(0, 64)
    .toString('latin1')
    .replace(/^\u00EF\u00BB\u00BF/, '')
    .trimStart();
  if (!start.startsWith('<')) throw invalid('xml', 'the base64 does not hold an XML document');
  return bytes;
}

const READ_ERRORS = {
  xml_hostil: 'xml_hostil',
  xml_malformado: 'xml_malformado',
  documento_nao_e_cte: 'documento_nao_e_cte',
  layout_nao_suportado: 'layout_nao_suportado',
  chave_invalida: 'chave_invalida',
} as const;

/** The text of the XML bytes, in the encoding its declaration names (UTF-8 when it names none). */
export function xmlTextOf(bytes: Buffer): string {
  try {
    return decodeXml(bytes);
  } catch (err) {
    if (err instanceof CteReadError) throw new ApiError(READ_ERRORS[err.code], err.message);
    throw err;
  }
}

/** Reads a CT-e sent as JSON `xml` (raw or base64) or as multipart part `arquivo`; refuses what is not one. */
export async function readCteUpload(request: FastifyRequest): Promise<CteUpload> {
  let bytes: Buffer;
  if (request.isMultipart()) {
    let file: Buffer | null = null;
    const parts = await readParts(request, {
      fileSize: MAX_CTE_XML,
      files: 1,
      fileTooLarge: 'the XML file is over 2 MB',
      tooManyFiles: { field: 'arquivo', message: 'send exactly one file' },
    });
    for (const part of parts) {
      if (part.name !== 'arquivo') continue;
      file = part.type === 'file' ? part.content : Buffer.from(part.value, 'utf8');
    }
    if (!file || file.length === 0) throw invalid('arquivo', 'required: the CT-e XML file');
    bytes = file;
  } else {
    const body = request.body as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw invalid('xml', 'required: send JSON `{ "xml": ... }` or multipart `arquivo`');
    const xml = (body as Record<string, unknown>).xml;
    if (typeof xml !== 'string' || xml.length === 0) throw invalid('xml', 'required: the CT-e XML, raw or base64');
    if (xml.length > MAX_CTE_XML) throw invalid('xml', `longer than ${MAX_CTE_XML} characters`);
    bytes = xmlBytesOf(xml);
  }
  if (bytes.length > MAX_CTE_XML) throw new ApiError('payload_muito_grande', 'the XML is over 2 MB');
  try {
    return { bytes, cte: await readCteDocument(xmlTextOf(bytes)) };
  } catch (err) {
    if (err instanceof CteReadError) throw new ApiError(READ_ERRORS[err.code], err.message);
    throw err;
  }
}
