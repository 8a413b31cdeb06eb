import { TextDecoder } from 'node:util';
import fp from 'fastify-plugin';
import { type FastifyError, type FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { findTextFault } from '../text';

type Context = 'body' | 'querystring' | 'params';

/** Shaped like the validator's own errors, so that the envelope names the field and `attachValidation` routes see it. */
function validationError(context: Context, path: string, message: string): FastifyError {
  const error = new Error(`${context} ${path}: ${message}`) as FastifyError;
  return Object.assign(error, {
    code: 'FST_ERR_VALIDATION',
    statusCode: 400,
    validationContext: context,
    validation: [{ keyword: 'text', instancePath: path, schemaPath: '', params: {}, message }],
  });
}

function textFault(request: FastifyRequest): FastifyError | null {
  const inputs: [Context, unknown][] = [
    ['params', request.params],
    ['querystring', request.query],
    ['body', request.body],
  ];
  for (const [context, input] of inputs) {
    const fault = findTextFault(input);
    if (fault) return validationError(context, fault.path, fault.message);
  }
  return null;
}

/**
 * Every string a client sends is checked once, here, before any route sees it: a JSON body must be UTF-8 (a
 * lossy decode would store U+FFFD in place of what was sent), and no string of the path, the query or the body
 * (JSON or form) may hold what PostgreSQL cannot store. Multipart parts are read by their routes, through
 * `readParts` (services/api/src/multipart.ts), which applies the same check.
 */
export const textInput = fp(async (app) => {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // axios and Postman send this content type on every POST: a route that takes no body takes an empty one, and a
    // route that needs one says which fields it needs (its validator sees no body).
    if ((body as Buffer).length === 0) return done(null, undefined);
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(
        new ApiError('validacao', 'the JSON body is not valid UTF-8', { fields: [{ field: '(body)', message: 'not valid UTF-8' }] }),
        undefined,
      );
      return;
    }
    parseJson(request, text, done);
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const fault = textFault(request);
    if (!fault) return done();
    // The token endpoint answers its own (RFC 6749) errors from the validation result.
    if (!request.routeOptions.attachValidation) return done(fault);
    request.validationError = fault as FastifyRequest['validationError'];
    done();
  });
});
