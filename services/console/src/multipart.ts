import type {} from '@fastify/multipart';
import { type FastifyRequest } from 'fastify';

export type Parte =
  | { tipo: 'arquivo'; nome: string; arquivo: string; mimetype: string; conteudo: Buffer }
  | { tipo: 'campo'; nome: string; valor: string };

/** Why a multipart body was not read: 413 for a file over the limit, 400 for anything else about its shape. */
export class CorpoRecusado extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The whole multipart body, read before anything acts on it (as the API's `readParts`), within `limites`: the
 * multipart plugin is registered by the API around the panel, with the same parser.
 */
export async function lerPartes(request: FastifyRequest, limites: { fileSize: number; files: number }): Promise<Parte[]> {
  if (!request.isMultipart()) throw new CorpoRecusado(400, 'Envie o formulário com o arquivo (multipart/form-data).');
  const partes: Parte[] = [];
  try {
    for await (const p of request.parts({ limits: { ...limites, fields: 10, parts: 12 } })) {
      if (p.type === 'file') {
        partes.push({ tipo: 'arquivo', nome: p.fieldname, arquivo: p.filename, mimetype: p.mimetype, conteudo: await p.toBuffer() });
      } else if (typeof p.value === 'string') {
        partes.push({ tipo: 'campo', nome: p.fieldname, valor: p.value });
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new CorpoRecusado(413, 'O arquivo passa do limite aceito.');
    if (code === 'FST_FILES_LIMIT') throw new CorpoRecusado(400, 'Envie um único arquivo.');
    throw new CorpoRecusado(400, 'O formulário enviado não pôde ser lido.');
  }
  return partes;
}
