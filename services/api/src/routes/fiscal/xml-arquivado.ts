import { Type } from '@sinclair/typebox';
import { type FastifyReply } from 'fastify';
import { ApiError } from '../../errors';
import { errors } from '../../schemas';
import { type ApiDeps } from '../../deps';

/** The answers of a route that gives an archived XML byte for byte (never reserialized). */
export const respostasXmlArquivado = (description = 'The XML document') => ({
  200: Type.Unsafe<Buffer>({ type: 'string', description }),
  ...errors(404, 503, 'xml_indisponivel'),
});

/**
 * Sends the archived bytes as `application/xml` under `disposicao` (`inline` or `attachment`) and `arquivo`; 503
 * `xml_indisponivel` when the archive cannot be read now (the row says it exists: a retry may succeed).
 */
export async function enviarXmlArquivado(
  deps: Pick<ApiDeps, 'documents'>,
  reply: FastifyReply,
  sha256: string,
  disposicao: 'inline' | 'attachment',
  arquivo: string,
): Promise<FastifyReply> {
  const doc = await deps.documents.get(sha256);
  if (!doc) throw new ApiError('xml_indisponivel', 'the archived XML cannot be read now; retry later');
  return reply.type('application/xml').header('Content-Disposition', `${disposicao}; filename="${arquivo}"`).send(doc.content);
}
