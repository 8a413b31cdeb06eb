import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Schema = Record<string, unknown>;

const isSchema = (x: unknown): x is Schema => typeof x === 'object' && x !== null && !Array.isArray(x);
const PRIMITIVAS = new Set(['string', 'number', 'integer', 'boolean']);
/** Keywords a union may carry besides its branches that say nothing about how a value is written. */
const SO_DOCUMENTACAO = new Set(['anyOf', 'oneOf', 'description', 'title', 'examples', 'default', 'deprecated']);

/** `{ type: 'null' }`, possibly described. */
const isNull = (s: Schema) => s.type === 'null' && Object.keys(s).every((k) => k === 'type' || k === 'description');
/** A literal (`Type.Literal`): `{ const, type }`. */
const literalType = (s: Schema): string | null => ('const' in s && typeof s.type === 'string' && PRIMITIVAS.has(s.type) ? s.type : null);

/** The shared schemas by `$id`, already rewritten: a nullable reference is written as its target, inlined. */
type Refs = (id: string) => Schema | undefined;

/**
 * A union as fast-json-stringify writes it without validating: `Union([Null, X])` becomes X with `nullable`, and a
 * union of literals of one type becomes that type. `nullable` needs a `type` beside it (Ajv, which still validates the
 * unions that remain, refuses it otherwise): a reference is replaced by its target. Anything else (a union of
 * objects, which needs the validation to pick its branch) is kept.
 */
function union(schema: Schema, branches: Schema[], refs: Refs): Schema {
  const nulls = branches.filter(isNull);
  let rest = branches.filter((b) => !isNull(b));
  const types = new Set(rest.map(literalType));
  if (rest.length > 1 && types.size === 1 && !types.has(null)) rest = [{ type: [...types][0] }];
  const extra = Object.fromEntries(Object.entries(schema).filter(([k]) => !SO_DOCUMENTACAO.has(k)));
  if (rest.length === 1 && Object.keys(extra).every((k) => k === '$id')) {
    let only = rest[0]!;
    if (nulls.length === 0) return { ...extra, ...only };
    if (typeof only.$ref === 'string' && Object.keys(only).length === 1) {
      const { $id: _id, ...target } = refs(only.$ref) ?? {};
      only = target;
    }
    if (typeof only.type === 'string') return { ...extra, ...only, nullable: true };
  }
  const key = 'anyOf' in schema ? 'anyOf' : 'oneOf';
  return { ...schema, [key]: branches };
}

const map = (x: unknown, refs: Refs): unknown =>
  Array.isArray(x) ? x.map((y) => map(y, refs)) : isSchema(x) ? forSerialization(x, refs) : x;
const mapValues = (o: unknown, refs: Refs) => (isSchema(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, map(v, refs)])) : o);

/**
 * The schema fast-json-stringify is given to write a response. It picks each `anyOf`/`oneOf` branch by validating the
 * value against it with Ajv: for the contracts' nullable fields and enums that is every response validated once
 * more, whole (a tenth of a CT-e GET's CPU), to write the same bytes. Written as `nullable` and as the literals'
 * type, they need no validation; the route's own schema (validation, OpenAPI) is untouched.
 */
export function forSerialization(schema: Schema, refs: Refs = () => undefined): Schema {
  const out: Schema = { ...schema };
  for (const key of ['properties', 'patternProperties', 'definitions', '$defs']) if (key in out) out[key] = mapValues(out[key], refs);
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'allOf', 'prefixItems']) {
    if (key in out) out[key] = map(out[key], refs);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = out[key];
    if (Array.isArray(branches)) return union(out, branches.map((b) => map(b, refs)) as Schema[], refs);
  }
  return out;
}

/** The `$id`s a schema names in its `$ref`s (the part before `#`). */
function referencedIds(x: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(x)) for (const y of x) referencedIds(y, into);
  else if (isSchema(x))
    for (const [k, v] of Object.entries(x)) {
      if (k === '$ref' && typeof v === 'string') {
        const id = v.split('#')[0];
        if (id) into.add(id);
      } else referencedIds(v, into);
    }
  return into;
}

/**
 * Fastify's own serializer (`@fastify/fast-json-stringify-compiler`, as fastify builds it), given each response
 * schema rewritten by `forSerialization` and, of the shared schemas, only those it reaches. fast-json-stringify
 * checks every shared schema it is given against the JSON Schema meta-schema on every build: given all of them for
 * each of the routes' responses, that was two thirds of an API process's start (8 of 12 s of CPU). A response
 * schema object used by many routes (the error envelope) is compiled once.
 */
export function buildSerializer(externalSchemas: unknown, options?: Parameters<ReturnType<typeof SerializerSelector>>[1]) {
  const shared = isSchema(externalSchemas) ? externalSchemas : {};
  const done = new Map<string, Schema>();
  // A schema that reaches itself through a nullable reference keeps that reference (it is being rewritten).
  const refs: Refs = (id) => {
    if (!done.has(id) && isSchema(shared[id])) {
      done.set(id, { $ref: id });
      done.set(id, forSerialization(shared[id], refs));
    }
    const found = done.get(id);
    return found && found.$ref !== id ? found : undefined;
  };
  const rewritten = mapValues(shared, refs) as Record<string, Schema>;
  /** The shared schemas `schema` reaches, itself excluded, transitively. */
  const reached = (schema: Schema): Record<string, Schema> => {
    const ids = referencedIds(schema, new Set());
    for (const id of ids) if (rewritten[id]) referencedIds(rewritten[id], ids);
    return Object.fromEntries([...ids].filter((id) => rewritten[id]).map((id) => [id, rewritten[id]!]));
  };
  const selector = SerializerSelector();
  const compiled = new WeakMap<object, ReturnType<ReturnType<typeof selector>>>();
  return (route: Parameters<ReturnType<typeof selector>>[0]) => {
    if (!isSchema(route.schema)) return selector(rewritten, options)(route);
    const cached = compiled.get(route.schema);
    if (cached) return cached;
    const schema = forSerialization(route.schema, refs);
    const writer = selector(reached(schema), options)({ ...route, schema });
    compiled.set(route.schema, writer);
    return writer;
  };
}
