import { type FastifyRequest } from 'fastify';
import { type FieldError } from '@frete/contracts';
import { ApiError } from './errors';
import { printable, textProblem } from './text';
import { fingerprintParts } from './plugins/idempotency';

export type ReceivedPart =
  | { type: 'file'; name: string; filename: string; mimetype: string; content: Buffer }
  | { type: 'field'; name: string; value: string };

/** A route's limits, and how it words the refusals of the two a client meets. */
export interface MultipartRules {
  fileSize: number;
  files: number;
  /** 413 message for a file over `fileSize`. */
  fileTooLarge: string;
  /** 400 field error for more than `files` files. */
  tooManyFiles: FieldError;
}

const invalid = (fields: FieldError[]) => new ApiError('validacao', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });

/** The part's names and text get the same check as every other string a client sends (see `textInput`). */
function checked(part: ReceivedPart): ReceivedPart {
  const field = printable(part.name);
  const problems = [
    [textProblem(part.name), 'part name'],
    [part.type === 'file' ? textProblem(part.filename) : null, 'file name'],
    [part.type === 'field' ? textProblem(part.value) : null, 'value'],
  ] as const;
  for (const [problem, what] of problems) if (problem) throw invalid([{ field, message: `${what} ${problem}` }]);
  return part;
}

/**
 * Every multipart route reads its body through here, whole, before it acts on any part: so a refusal is one of the
 * envelope's (413 for a file over the limit, 400 for too many files or parts, a text value that is not text, or a
 * body busboy cannot read), never a 500. A refusal in the middle of the body leaves the rest unread; `unreadBody`
 * drops it so that the keep-alive connection serves the next request.
 */
export async function readParts(request: FastifyRequest, rules: MultipartRules): Promise<ReceivedPart[]> {
  const parts: ReceivedPart[] = [];
  try {
    for await (const part of request.parts({ limits: { fileSize: rules.fileSize, files: rules.files } })) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        parts.push(checked({ type: 'file', name: part.fieldname, filename: part.filename, mimetype: part.mimetype, content }));
      } else if (typeof part.value === 'string') {
        parts.push(checked({ type: 'field', name: part.fieldname, value: part.value }));
      } else {
        throw invalid([{ field: printable(part.fieldname), message: 'must be a text value' }]);
      }
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    switch ((err as { code?: string }).code) {
      case 'FST_REQ_FILE_TOO_LARGE':
        throw new ApiError('payload_muito_grande', rules.fileTooLarge);
      case 'FST_FILES_LIMIT':
        throw invalid([rules.tooManyFiles]);
      case 'FST_PARTS_LIMIT':
      case 'FST_FIELDS_LIMIT':
        throw invalid([{ field: '(body)', message: 'too many parts' }]);
      default:
        throw invalid([{ field: '(body)', message: 'malformed multipart body' }]);
    }
  }
  // With an `Idempotency-Key`: claimed now that the request's content is known, before anything acts on it.
  if (request.claimIdempotency) await request.claimIdempotency(fingerprintParts(parts));
  return parts;
}
