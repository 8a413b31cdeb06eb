/**
 * Shapes that client generators (openapi-generator's Java and Python, among others) turn into code that compiles: each
 * schema a client names is a named component, so that one resource is one class whatever the route that answers it,
 * and no name is made up from an operation and a status (`AlterarVeiculo200Response`). The routes keep writing their
 * schemas inline (`DataEnvelope(...)`); this pass names them when the document is built.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
const PREFIX = '#/components/schemas/';

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);
const refName = (s: unknown) =>
  isObject(s) && typeof s.$ref === 'string' && s.$ref.startsWith(PREFIX) ? s.$ref.slice(PREFIX.length) : null;

/** The components' schemas, where a name holds one shape: a second, different shape under a taken name is a bug. */
class Componentes {
  constructor(private readonly schemas: Json) {}

  /** `{ $ref }` to `schema` under `name`, added unless the same shape is there already. */
  nomear(name: string, schema: Json): Json {
    const existing = this.schemas[name];
    if (existing === undefined) this.schemas[name] = schema;
    else if (JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI: two different schemas want the component name ${name}; give one of them another title`);
    }
    return { $ref: PREFIX + name };
  }
}

/** Keywords whose values are data, not schemas: a `title` inside an example is no resource. */
const VALORES = new Set(['examples', 'example', 'default', 'const', 'enum']);

/** Every inline schema with a `title` (a resource written without `$id`) becomes the component of that name. */
function extrairTitulados(node: unknown, componentes: Componentes): unknown {
  if (Array.isArray(node)) return node.map((n) => extrairTitulados(n, componentes));
  if (!isObject(node)) return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, VALORES.has(k) ? v : extrairTitulados(v, componentes)]));
  if (typeof out.title !== 'string' || out.$ref !== undefined) return out;
  const { title, ...schema } = out;
  return componentes.nomear(title as string, schema);
}

/**
 * The name of an answer's body: `<Resource>Envelope` for `{ data: <Resource>, environment }`, `<Resource>Lista` for a
 * page of them, `<OperationId>Resposta` for anything else of its own (several statuses of one shape share it).
 */
function nomeDaResposta(schema: Json, operationId: string, status: string, componentes: Componentes): Json {
  const props = isObject(schema.properties) ? schema.properties : {};
  const keys = Object.keys(props).sort().join(',');
  const data = props.data;
  const one = keys === 'data,environment' ? refName(data) : null;
  const many = keys === 'data,environment,meta' && isObject(data) ? refName(data.items) : null;
  // A resource already named an envelope (`CteIssueEnvelope`, the answer of an issue) is not named one twice.
  if (one) return componentes.nomear(one.endsWith('Envelope') ? `${one.slice(0, -'Envelope'.length)}Resposta` : `${one}Envelope`, schema);
  if (many) return componentes.nomear(`${many}Lista`, schema);
  try {
    return componentes.nomear(`${pascal(operationId)}Resposta`, schema);
  } catch {
    return componentes.nomear(`${pascal(operationId)}Resposta${status}`, schema);
  }
}

const formFirst = (type: string) => (type === 'multipart/form-data' ? 0 : 1);

/** `?placas=A,B`: the query lists this API reads are comma-separated (a repeated parameter is read too). */
function listasSeparadasPorVirgula(operation: Json): void {
  if (!Array.isArray(operation.parameters)) return;
  for (const p of operation.parameters) {
    if (isObject(p) && p.in === 'query' && isObject(p.schema) && p.schema.type === 'array') {
      p.style = 'form';
      p.explode = false;
    }
  }
}

/**
 * Names the document's bodies for generators: titled schemas, the JSON answers (a description the envelope carried goes
 * to the response when that says nothing of its own), and each media type of a body offered in several (one model per
 * media type: `title` or `<OperationId><Media>`).
 */
export function nomearModelos(doc: Json): void {
  const components = isObject(doc.components) ? doc.components : (doc.components = {});
  const schemas = isObject(components.schemas) ? components.schemas : (components.schemas = {});
  const componentes = new Componentes(schemas);
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !isObject(operation)) continue;
      const id = String(operation.operationId ?? method);
      listasSeparadasPorVirgula(operation);
      const body = operation.requestBody;
      if (isObject(body) && isObject(body.content)) {
        const entries = Object.entries(body.content);
        const several = entries.length > 1;
        // Generators build the call from the first media type but import the model of each, and write no model a
        // multipart body alone uses: multipart first, the call takes the file and imports nothing unwritten.
        const content = Object.fromEntries(several ? entries.sort(([a], [b]) => formFirst(a) - formFirst(b)) : entries);
        body.content = content;
        for (const [type, media] of Object.entries(content)) {
          if (!isObject(media)) continue;
          media.schema = extrairTitulados(media.schema, componentes);
          const schema = media.schema;
          if (several && isObject(schema) && schema.$ref === undefined) {
            const suffix = pascal(type.split('/')[1]!.replace(/[^a-z0-9]+([a-z0-9])/g, (_m, c: string) => c.toUpperCase()));
            media.schema = componentes.nomear(`${pascal(id)}${suffix}`, schema);
          }
        }
      }
      if (!isObject(operation.responses)) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!isObject(response) || !isObject(response.content)) continue;
        const media = response.content['application/json'];
        if (!isObject(media)) continue;
        const titled = extrairTitulados(media.schema, componentes);
        if (!isObject(titled) || titled.$ref !== undefined || titled.type !== 'object') {
          media.schema = titled;
          continue;
        }
        const { description, ...schema } = titled;
        if (typeof description === 'string' && (response.description === 'Default Response' || response.description === undefined)) {
          response.description = description;
        }
        media.schema = nomeDaResposta(schema, id, status, componentes);
      }
    }
  }
}
