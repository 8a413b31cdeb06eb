import { documentoOpenApi } from '@frete/api';
import { completarDocumento, OPENAPI_COMPONENTS } from '../../services/api/src/openapi';
import { errors } from '../../services/api/src/schemas';

/** The pieces of the OpenAPI document that need no database: `errors()`, the completing pass, the offline build. */
describe('OpenAPI document, without a database', () => {
  it('errors(): a code brings its status, the default statuses are always there, and each description names its codes', () => {
    const r = errors(400, 'cte_nao_editavel', 'lote_nao_encontrado', 'provedor_indisponivel');
    expect(Object.keys(r).sort()).toEqual(['400', '401', '403', '404', '422', '429', '500', '503']);
    const d = (s: number) => (r[s] as { description: string }).description;
    expect(d(422)).toBe('a business rule was not met: `cte_nao_editavel`');
    expect(d(404)).toMatch(/^`nao_encontrado`.*; also `lote_nao_encontrado`$/);
    expect(d(503)).toMatch(/^`consulta_indisponivel`.*; also `provedor_indisponivel`$/);
    // A code the default description names already is not repeated.
    expect(d(400)).not.toMatch(/also/);
    expect(errors(422, 'validacao')[400]).toEqual(errors(400)[400]);
  });

  it('completarDocumento: headers, examples of the named codes of that status only, JSON errors, a 400 where there is input', () => {
    const ref = { $ref: '#/components/schemas/ErrorEnvelope' };
    const doc = {
      paths: {
        '/x/{id}': {
          post: {
            parameters: [{ in: 'path', name: 'id' }],
            responses: {
              '200': { description: 'Default Response', content: { 'application/xml': { schema: { type: 'string' } } } },
              // `serie_reservada` is a 422: named in the 404's description, it is no example of the 404.
              '404': {
                description: '`nao_encontrado`, `lote_nao_encontrado`, `serie_reservada`',
                content: { 'application/xml': { schema: ref } },
              },
              '429': { description: '`limite_requisicoes`', content: { 'application/json': { schema: ref } } },
            },
          },
        },
      },
      components: { examples: { ...OPENAPI_COMPONENTS.examples } },
    };
    const out = completarDocumento(structuredClone(doc));
    const responses = out.paths['/x/{id}'].post.responses as Record<string, Record<string, unknown>>;
    expect(responses['200']).toEqual({
      description: 'OK',
      content: { 'application/xml': { schema: { type: 'string' } } },
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    });
    expect(responses['404']!.content).toEqual({
      'application/json': {
        schema: ref,
        examples: {
          nao_encontrado: { $ref: '#/components/examples/nao_encontrado' },
          lote_nao_encontrado: { $ref: '#/components/examples/lote_nao_encontrado' },
        },
      },
    });
    expect(responses['429']!.headers).toEqual({
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
      'Retry-After': { $ref: '#/components/headers/Retry-After' },
    });
    expect(responses['400']!.content).toEqual({
      'application/json': { schema: ref, examples: { validacao: { $ref: '#/components/examples/validacao' } } },
    });
    // Only the examples some response names are kept.
    expect(Object.keys(out.components.examples).sort()).toEqual([
      'limite_requisicoes',
      'lote_nao_encontrado',
      'nao_encontrado',
      'validacao',
    ]);
    expect(out.components.examples.validacao!.value.error).toMatchObject({
      code: 'validacao',
      details: { fields: [{ field: 'cnpj', message: expect.any(String) }] },
    });
  });

  it('builds the served document from the routes alone: 3.1.0, every operation with an id', async () => {
    const doc = (await documentoOpenApi()) as { openapi: string; paths: Record<string, Record<string, { operationId?: string }>> };
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(ops.length).toBeGreaterThanOrEqual(106);
    expect(ops.filter((o) => !o.operationId)).toEqual([]);
  });
});
