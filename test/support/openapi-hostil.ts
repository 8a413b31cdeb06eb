import { randomUUID } from 'node:crypto';

/** The parts of a JSON Schema (as @fastify/swagger writes them into the OpenAPI document) the sweep reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

export interface Parameter {
  in: 'query' | 'path' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** One hostile request, ready to send. */
export interface HostileRequest {
  /** What is hostile in it, for the failure message. */
  label: string;
  method: string;
  /** Path and query, already encoded (hostile bytes included). */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Values that each break something at a different layer; sampled per field, never the whole cross product. */
export const HOSTILE_STRINGS: readonly string[] = [
  'A\u0000B',
  '\u0001\u0007\u001b[31m\u007f\u0085',
  'x\ud800y',
  '',
  'x'.repeat(300_000),
  '   ',
  "' OR 1=1 --",
  '%_\\',
  '\u202eSAFE\u200b\ufeff',
  '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>',
];

/** Raw JSON tokens JSON.stringify cannot write: invalid UTF-8 inside a string, numbers beyond double range. */
const RAW_TOKENS: readonly Buffer[] = [
  Buffer.from([0x22, 0x41, 0xff, 0xfe, 0x42, 0x22]),
  Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]),
  Buffer.from('1e999'),
  Buffer.from('-0'),
];

const WRONG_TYPES: readonly unknown[] = [null, [], {}, true, 'texto', 12];

/** Numbers at and beyond the schema's bounds, and beyond what an integer column or a double holds. */
function hostileNumbers(s: JsonSchema): number[] {
  const out: number[] = [1e308, -1e308, 2 ** 63, 2 ** 64, -1, 0, Number.MAX_SAFE_INTEGER + 2];
  if (s.type === 'integer') out.push(1.5);
  else out.push(1e-9, 0.005);
  for (const bound of [s.minimum, s.exclusiveMinimum]) if (bound !== undefined) out.push(bound, bound - 1);
  for (const bound of [s.maximum, s.exclusiveMaximum]) if (bound !== undefined) out.push(bound, bound + 1);
  return out;
}

/** Percent-encoded query and path values: NUL, invalid UTF-8, a lone surrogate, controls, huge, numbers out of range. */
export const HOSTILE_URL_VALUES: readonly string[] = [
  '%00',
  'A%00',
  '%FF%FE',
  '%ED%A0%80',
  '%C3%28',
  '%01%1B%7F',
  '',
  '%20',
  'x'.repeat(20_000),
  'x'.repeat(3_000),
  '1e308',
  '18446744073709551616',
  '-1',
  '1.5',
  'NaN',
  '%25%5F%5C',
  '..%2F..%2Fetc%2Fpasswd',
  '%2F',
];

/** The string a Brazilian API expects under this name, so that the base body gets past the first checks. */
function plausibleString(name: string, s: JsonSchema, ids: Plausible): string {
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'date') return '2024-05-10';
  if (s.format === 'date-time') return '2024-05-10T10:00:00-03:00';
  if (s.format === 'binary') return 'conteudo';
  const n = name.toLowerCase();
  if (n.includes('cpf')) return ids.cpf;
  if (n.includes('cnpj') || n === 'documento') return ids.cnpj;
  if (n.includes('placa')) return 'ABC1D23';
  if (n === 'uf' || n.startsWith('uf_')) return 'SP';
  if (n.includes('municipio')) return 'Campinas';
  if (n.includes('ibge')) return '3509502';
  if (n.includes('chave') || n.includes('access_key')) return ids.accessKey;
  if (n.includes('email')) return 'contato@example.com';
  if (n === 'cep') return '13010000';
  if (n.includes('rntrc')) return '12345678';
  if (n.includes('cfop')) return '5353';
  if (n === 'cst') return '00';
  if (n.includes('telefone')) return '+5519999990000';
  if (n === 'xml') return '<CTe/>';
  const min = s.minLength ?? 1;
  return 'TEXTO-DE-TESTE'.padEnd(min, 'X').slice(0, Math.max(min, Math.min(s.maxLength ?? 14, 14)));
}

/** Ids the base requests use: real ones where the sweep made the resource, plausible ones otherwise. */
export interface Plausible {
  cpf: string;
  cnpj: string;
  accessKey: string;
  /** A value for each path parameter, by path template and name (`{id}` differs per resource). */
  pathParam: (path: string, name: string) => string;
}

export class SchemaSampler {
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly ids: Plausible,
  ) {}

  resolve(s: JsonSchema): JsonSchema {
    let out = s;
    for (let i = 0; out.$ref && i < 20; i++) out = this.doc.components.schemas[out.$ref.replace('#/components/schemas/', '')] ?? {};
    return out;
  }

  /** The first branch of a union that is not null: what a client would usually send. */
  branch(s: JsonSchema): JsonSchema {
    const r = this.resolve(s);
    const options = r.anyOf ?? r.oneOf;
    if (options) return this.branch(options.find((o) => this.resolve(o).type !== 'null') ?? options[0]!);
    if (r.allOf) return this.branch(r.allOf[0]!);
    return r;
  }

  /** A plausible value: required properties only, one item per required list. */
  sample(s: JsonSchema, name = '', depth = 0): unknown {
    const r = this.branch(s);
    if (r.const !== undefined) return r.const;
    // A union of literals (a UF): the plausible one when it is among them.
    const literals = (this.resolve(s).anyOf ?? []).map((o) => this.resolve(o).enum?.[0]);
    const preferred = plausibleString(name, {}, this.ids);
    if (literals.includes(preferred)) return preferred;
    if (r.enum) return r.enum[0];
    if (r.default !== undefined) return r.default;
    switch (r.type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        if (depth > 8) return out;
        for (const key of r.required ?? []) out[key] = this.sample(r.properties?.[key] ?? {}, key, depth + 1);
        return out;
      }
      case 'array':
        return (r.minItems ?? 0) > 0 && depth <= 8 ? [this.sample(r.items ?? {}, name, depth + 1)] : [];
      case 'integer':
      case 'number':
        return Math.max(r.minimum ?? 1, r.exclusiveMinimum !== undefined ? r.exclusiveMinimum + 1 : 1);
      case 'boolean':
        return false;
      case 'string':
        return plausibleString(name, r, this.ids);
      default:
        return 'x';
    }
  }

  /**
   * Every place in the body a hostile value can go: each leaf of the base value and each property the schema
   * allows beside it (optional ones included), with the schema that describes it.
   */
  targets(s: JsonSchema, value: unknown, at: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: JsonSchema }[] {
    const r = this.branch(s);
    if (depth > 8) return [];
    if (r.type === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const out: { path: (string | number)[]; schema: JsonSchema }[] = [];
      for (const [key, prop] of Object.entries(r.properties ?? {})) {
        const child = (value as Record<string, unknown>)[key];
        if (child === undefined) out.push({ path: [...at, key], schema: this.branch(prop) });
        else out.push(...this.targets(prop, child, [...at, key], depth + 1));
      }
      return out;
    }
    if (r.type === 'array' && Array.isArray(value)) {
      return value.length > 0 ? this.targets(r.items ?? {}, value[0], [...at, 0], depth + 1) : [{ path: at, schema: r }];
    }
    return [{ path: at, schema: r }];
  }
}

const MARK = '\u0000__HOSTIL__\u0000';

const setAt = (base: unknown, path: (string | number)[], value: unknown): unknown => {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  if (path.length === 0) return value;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
};

/** The JSON text of `value` with the marker replaced by raw bytes. */
const withRaw = (value: unknown, raw: Buffer): Buffer => {
  const text = JSON.stringify(value);
  const i = text.indexOf(JSON.stringify(MARK));
  return Buffer.concat([Buffer.from(text.slice(0, i)), raw, Buffer.from(text.slice(i + JSON.stringify(MARK).length))]);
};

/**
 * The values field `i` gets: the list's first (the defect every field must survive: NUL, 1e308) and `count` others,
 * rotating from the field's own offset so that the whole list is covered across fields.
 */
export const pick = <T>(list: readonly T[], i: number, count: number): T[] => {
  const rest = list.slice(1);
  return [list[0]!, ...Array.from({ length: Math.min(count, rest.length) }, (_, k) => rest[(i * count + k) % rest.length]!)];
};

/** JSON bodies: per target, a few hostile values of its kind and a wrong type; then hostile whole bodies. */
export function hostileJsonBodies(sampler: SchemaSampler, schema: JsonSchema, maxTargets: number): { label: string; body: Buffer }[] {
  const base = sampler.sample(schema);
  const all = sampler.targets(schema, base);
  const step = Math.max(1, Math.ceil(all.length / maxTargets));
  const chosen = all.filter((_, i) => i % step === 0);
  const out: { label: string; body: Buffer }[] = [];
  chosen.forEach((t, i) => {
    const where = t.path.join('.') || '(body)';
    const kind = t.schema.type;
    if (kind === 'integer' || kind === 'number') {
      for (const n of pick(hostileNumbers(t.schema), i, 2))
        out.push({ label: `${where} = ${n}`, body: Buffer.from(JSON.stringify(setAt(base, t.path, n))) });
    } else {
      for (const s of pick(HOSTILE_STRINGS, i, 2)) {
        out.push({
          label: `${where} = ${JSON.stringify(s.slice(0, 20))}${s.length > 20 ? `… (${s.length})` : ''}`,
          body: Buffer.from(JSON.stringify(setAt(base, t.path, s))),
        });
      }
    }
    const raw = RAW_TOKENS[i % RAW_TOKENS.length]!;
    out.push({ label: `${where} = raw ${raw.toString('latin1')}`, body: withRaw(setAt(base, t.path, MARK), raw) });
    const wrong = WRONG_TYPES[i % WRONG_TYPES.length];
    out.push({ label: `${where} = ${JSON.stringify(wrong)} (wrong type)`, body: Buffer.from(JSON.stringify(setAt(base, t.path, wrong))) });
  });
  const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
  out.push(
    { label: 'base body', body: Buffer.from(JSON.stringify(base)) },
    { label: 'JSON nested 10,000 levels', body: Buffer.from(deep) },
    { label: 'JSON nested 10,000 levels in a field', body: withRaw(setAt(base, ['aninhado'], MARK), Buffer.from(deep)) },
    {
      label: 'invalid UTF-8 in the body',
      body: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]),
    },
    { label: 'empty JSON body', body: Buffer.alloc(0) },
    { label: 'array instead of object', body: Buffer.from('[1,2,3]') },
    { label: 'a bare string', body: Buffer.from('"texto"') },
    { label: '__proto__ pollution', body: Buffer.from('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}') },
    { label: 'truncated JSON', body: Buffer.from('{"a": [1, 2') },
    { label: 'a field name with NUL', body: Buffer.from('{"a\\u0000b": 1}') },
  );
  return out;
}

const BOUNDARY = 'hostil-boundary-7e3';

const filePart = (name: string, filename: string, content: Buffer, type = 'application/xml') =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      'latin1',
    ),
    content,
    Buffer.from('\r\n'),
  ]);
const textPart = (name: string, value: Buffer) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`, 'latin1'),
    value,
    Buffer.from('\r\n'),
  ]);
const close = Buffer.from(`--${BOUNDARY}--\r\n`);

/** Multipart bodies: hostile names, file names and text parts, too many parts, broken framing. */
export function hostileMultipartBodies(schema: JsonSchema): { label: string; contentType: string; body: Buffer }[] {
  const ct = `multipart/form-data; boundary=${BOUNDARY}`;
  const props = Object.entries(schema.properties ?? {});
  const fileField = props.find(([, p]) => p.format === 'binary' || p.items?.format === 'binary')?.[0] ?? 'arquivo';
  const textField = props.find(([, p]) => p.type === 'string' && p.format !== 'binary')?.[0];
  const xml = Buffer.from('<?xml version="1.0"?><CTe><infCte Id="CTe1"/></CTe>');
  const list: { label: string; contentType: string; body: Buffer }[] = [
    { label: 'NUL in the file name', contentType: ct, body: Buffer.concat([filePart(fileField, 'a\u0000.xml', xml), close]) },
    {
      label: 'invalid UTF-8 in the file name',
      contentType: ct,
      body: Buffer.concat([filePart(fileField, '\u00ff\u00fe.xml', xml), close]),
    },
    { label: 'NUL in the part name', contentType: ct, body: Buffer.concat([filePart(`${fileField}\u0000`, 'a.xml', xml), close]) },
    {
      label: 'NUL inside the XML file',
      contentType: ct,
      body: Buffer.concat([filePart(fileField, 'a.xml', Buffer.from('<CTe>\u0000</CTe>')), close]),
    },
    {
      label: 'binary junk file',
      contentType: ct,
      body: Buffer.concat([filePart(fileField, 'a.bin', Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80]), 'application/octet-stream'), close]),
    },
    {
      label: 'the file as a text part with invalid UTF-8',
      contentType: ct,
      body: Buffer.concat([textPart(fileField, Buffer.from([0x3c, 0xff, 0xfe, 0x3e])), close]),
    },
    {
      label: 'the file as a text part with NUL',
      contentType: ct,
      body: Buffer.concat([textPart(fileField, Buffer.from('<a>\u0000</a>')), close]),
    },
    {
      label: '60 text parts',
      contentType: ct,
      body: Buffer.concat([...Array.from({ length: 60 }, (_, i) => textPart(`campo${i}`, Buffer.from('x'))), close]),
    },
    {
      label: '25 files',
      contentType: ct,
      body: Buffer.concat([...Array.from({ length: 25 }, (_, i) => filePart(fileField, `a${i}.xml`, xml)), close]),
    },
    { label: 'no parts', contentType: ct, body: close },
    { label: 'empty body', contentType: ct, body: Buffer.alloc(0) },
    { label: 'cut in a part header', contentType: ct, body: filePart(fileField, 'a.xml', xml).subarray(0, 50) },
    { label: 'no closing boundary', contentType: ct, body: filePart(fileField, 'a.xml', xml) },
    {
      label: 'no boundary in the content type',
      contentType: 'multipart/form-data',
      body: Buffer.concat([filePart(fileField, 'a.xml', xml), close]),
    },
    {
      label: 'a JSON part that is not JSON',
      contentType: ct,
      body: Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"\r\nContent-Type: application/json\r\n\r\n{nope\r\n`,
        ),
        close,
      ]),
    },
  ];
  if (textField) {
    list.push(
      {
        label: `NUL in ${textField}`,
        contentType: ct,
        body: Buffer.concat([filePart(fileField, 'a.pfx', xml), textPart(textField, Buffer.from('se\u0000nha')), close]),
      },
      {
        label: `invalid UTF-8 in ${textField}`,
        contentType: ct,
        body: Buffer.concat([filePart(fileField, 'a.pfx', xml), textPart(textField, Buffer.from([0xff, 0xfe])), close]),
      },
      {
        label: `huge ${textField}`,
        contentType: ct,
        body: Buffer.concat([filePart(fileField, 'a.pfx', xml), textPart(textField, Buffer.alloc(2_000_000, 'x')), close]),
      },
    );
  }
  return list;
}

/** Form bodies (the token endpoint): each field with hostile percent-encoded values. */
export function hostileFormBodies(sampler: SchemaSampler, schema: JsonSchema): { label: string; body: Buffer }[] {
  const r = sampler.resolve(schema);
  const fields = Object.keys(r.properties ?? {});
  const base: Record<string, string> = { grant_type: 'client_credentials', client_id: 'cliente', client_secret: 'segredo' };
  const encode = (o: Record<string, string>) =>
    Object.entries(o)
      .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
      .join('&');
  const out: { label: string; body: Buffer }[] = [];
  fields.forEach((field, i) => {
    for (const v of pick(HOSTILE_URL_VALUES, i, 5)) {
      const values = Object.fromEntries(Object.entries(base).map(([k, x]) => [k, encodeURIComponent(x)]));
      out.push({ label: `${field} = ${v.slice(0, 30)}`, body: Buffer.from(encode({ ...values, [field]: v })) });
    }
  });
  out.push({
    label: 'invalid UTF-8 bytes in the form',
    body: Buffer.concat([Buffer.from('grant_type=client_credentials&client_id='), Buffer.from([0xff, 0x00, 0xfe])]),
  });
  return out;
}
