import { documentoOpenApi } from '@frete/api';
import { nomearModelos } from '../../services/api/src/openapi-modelos';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  tags: string[];
  parameters?: { in: string; name: string; schema: Json; style?: string; explode?: boolean }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, Json> };
}

/** Every schema node under `node`, with its JSON path. */
function* nos(node: unknown, where = ''): Generator<[string, Json]> {
  if (Array.isArray(node)) for (const [i, n] of node.entries()) yield* nos(n, `${where}/${i}`);
  else if (typeof node === 'object' && node !== null) {
    yield [where, node as Json];
    for (const [k, v] of Object.entries(node)) yield* nos(v, `${where}/${k}`);
  }
}

/**
 * Issue 28, point 8: the shapes client generators (openapi-generator's Java and Python) turn into code that compiles.
 * `test/api/clientes-geradores.test.ts` generates and runs those clients; this checks the document's side offline.
 */
describe('OpenAPI document: shapes client generators understand', () => {
  let doc: Doc;
  beforeAll(async () => {
    doc = (await documentoOpenApi()) as unknown as Doc;
  });
  const operations = () =>
    Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => ({ where: `${m} ${p}`, op })));

  it('integer codes are integers: no number constant or enum (Java wrote BigDecimal.valueOf(BigDecimal))', () => {
    const numeros = [...nos(doc)].filter(([, n]) => n.type === 'number' && (n.const !== undefined || n.enum !== undefined)).map(([w]) => w);
    expect(numeros).toEqual([]);
    expect(doc.components.schemas.TokenResponse).toMatchObject({ properties: { expires_in: { type: 'integer', enum: [3600] } } });
    expect(doc.components.schemas.ContraCteInput).toMatchObject({
      properties: { tipo_servico: { anyOf: [{ type: 'integer', enum: [1, 2, 3] }, { type: 'null' }] } },
    });
  });

  it('a comma-separated query list is an array with style form, explode false', () => {
    const placas = doc.paths['/v1/consultas/frota']!.get!.parameters!.find((p) => p.name === 'placas')!;
    expect(placas).toMatchObject({
      in: 'query',
      required: true,
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string' } },
    });
    const listas = operations().flatMap(({ where, op }) =>
      (op.parameters ?? []).filter((p) => p.in === 'query' && (p.schema.type === 'array' || p.schema.anyOf)).map((p) => ({ where, p })),
    );
    for (const { where, p } of listas.filter(({ p }) => p.schema.type === 'array')) {
      expect({ where, style: p.style, explode: p.explode }).toEqual({ where, style: 'form', explode: false });
    }
    // No query parameter is "a string or an array" any more (Java wrote `List<String>.class`).
    expect(listas.filter(({ p }) => (p.schema.anyOf as Json[] | undefined)?.some((s) => s.type === 'array'))).toEqual([]);
  });

  it('a body offered in several media types: one named model each, multipart first', () => {
    const varios = operations().filter(({ op }) => Object.keys(op.requestBody?.content ?? {}).length > 1);
    expect(varios.map(({ where }) => where).sort()).toEqual(['post /v1/fiscal/cte-emitidos', 'post /v1/fiscal/cte-subcontratacao']);
    for (const { op } of varios) {
      expect(op.requestBody!.content).toEqual({
        'multipart/form-data': { schema: { $ref: '#/components/schemas/EnvioCteArquivo' } },
        'application/json': { schema: { $ref: '#/components/schemas/EnvioCteXml' } },
      });
    }
    expect(doc.components.schemas.EnvioCteXml).toMatchObject({ required: ['xml'] });
    expect(doc.components.schemas.EnvioCteArquivo).toMatchObject({ required: ['arquivo'] });
  });

  it('every JSON answer is a named component: envelopes of one resource shared across routes, no name made up from a route', () => {
    const inline = operations().flatMap(({ where, op }) =>
      Object.entries(op.responses)
        .filter(([, r]) => r.content?.['application/json'] && r.content['application/json'].schema.$ref === undefined)
        .map(([status]) => `${where} ${status}`),
    );
    expect(inline).toEqual([]);
    const veiculo = { $ref: '#/components/schemas/VeiculoEnvelope' };
    expect(doc.paths['/v1/fiscal/veiculos']!.post!.responses['201']!.content!['application/json']!.schema).toEqual(veiculo);
    expect(doc.paths['/v1/fiscal/veiculos/{id}']!.get!.responses['200']!.content!['application/json']!.schema).toEqual(veiculo);
    expect(doc.components.schemas.VeiculoEnvelope).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/Veiculo' } },
      required: ['data', 'environment'],
    });
    expect(doc.components.schemas.VeiculoLista).toMatchObject({
      properties: { data: { items: { $ref: '#/components/schemas/Veiculo' } } },
    });
    // An answer with a shape of its own is named after its operation; an issue's answer is not an "EnvelopeEnvelope".
    expect(doc.paths['/health/ready']!.get!.responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/VerificarProntidaoResposta',
    });
    expect(Object.keys(doc.components.schemas).filter((n) => n.endsWith('EnvelopeEnvelope'))).toEqual([]);
  });

  it('the webhook callbacks have a tag of their own, apart from the subscription routes (one file per tag in a client)', () => {
    const tags = new Set(Object.values(doc.webhooks).flatMap((w) => w.post.tags));
    expect([...tags]).toEqual(['Notificações']);
    expect(operations().filter(({ op }) => op.tags.includes('Notificações'))).toEqual([]);
    expect(operations().some(({ op }) => op.tags.includes('Webhooks'))).toBe(true);
  });

  it('nomearModelos: two different shapes under one name fail the build, naming which', () => {
    const resposta = (data: Json) => ({
      responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { data } } } } } },
    });
    const doc2 = {
      paths: {
        '/a': { get: { operationId: 'obterA', ...resposta({ type: 'object', title: 'Coisa', properties: { a: { type: 'string' } } }) } },
        '/b': { get: { operationId: 'obterB', ...resposta({ type: 'object', title: 'Coisa', properties: { b: { type: 'string' } } }) } },
      },
    };
    expect(() => nomearModelos(doc2)).toThrow(/two different schemas want the component name Coisa/);
  });
});
