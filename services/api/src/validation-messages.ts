import { type FastifyError } from 'fastify';
import { type FieldError } from '@frete/contracts';

/** One validator error, as AJV reports it with `verbose` (the failing schema's parent and the value beside it). */
interface ValidatorError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: unknown;
  data?: unknown;
}

/** Beyond this many allowed values a message names the first ones and how many there are. */
const MAX_VALUES = 40;

/** How a `format` reads to a person: the shape, with an example. */
const FORMATS: Record<string, string> = {
  date: 'a date YYYY-MM-DD (e.g. 2026-11-29)',
  'date-time': 'a date-time with its offset (e.g. 2026-11-29T14:30:00-03:00)',
  time: 'a time HH:MM:SS (e.g. 14:30:00)',
  email: 'an e-mail address',
  uri: 'an absolute URL (e.g. https://example.com/hook)',
  uuid: 'a UUID (e.g. 0b7b3c1e-9a0d-4c1e-8f7a-2f1d5e6c7b8a)',
  binary: 'a file',
};

const TYPES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const typeOfValue = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function listed(values: unknown[]): string {
  const unique = [...new Set(values.map(shown))];
  if (unique.length <= MAX_VALUES) return unique.join(', ');
  return `${unique.slice(0, MAX_VALUES).join(', ')}… (${unique.length} values)`;
}

const properties = (schema: unknown): string[] =>
  schema && typeof schema === 'object' && 'properties' in schema && schema.properties && typeof schema.properties === 'object'
    ? Object.keys(schema.properties)
    : [];

const describedAs = (schema: unknown): string | null =>
  schema &&
  typeof schema === 'object' &&
  'description' in schema &&
  typeof schema.description === 'string' &&
  schema.description.length <= 100
    ? schema.description
    : null;

function fieldOf(prefix: string, e: ValidatorError): string {
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const leaf =
    typeof e.params.missingProperty === 'string'
      ? e.params.missingProperty
      : typeof e.params.additionalProperty === 'string'
        ? e.params.additionalProperty
        : '';
  return prefix + [path, leaf].filter(Boolean).join('.') || prefix.replace(/\.$/, '') || '(body)';
}

/** One error's own sentence: what the field must be, naming the allowed values or shape and what was sent. */
function sentence(e: ValidatorError): string {
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties': {
      const allowed = properties(e.parentSchema);
      return allowed.length > 0 ? `unknown field (allowed: ${listed(allowed)})` : 'unknown field (this object takes no fields)';
    }
    case 'type': {
      const wanted = String(p.type)
        .split(',')
        .map((t) => TYPES[t] ?? t)
        .join(' or ');
      if (e.instancePath === '' && e.data === null) return `must be ${wanted} (the request came with no body)`;
      return e.data === undefined ? `must be ${wanted}` : `must be ${wanted} (got ${typeOfValue(e.data)})`;
    }
    case 'format':
      return `must be ${FORMATS[String(p.format)] ?? `in the format ${String(p.format)}`}`;
    case 'pattern': {
      // The contracts describe a pattern's field in words ("RNTRC, 8 digits"): a person reads that, not the regex.
      const said = describedAs(e.parentSchema);
      return `must match the pattern ${String(p.pattern)}${said ? ` (${said})` : ''}`;
    }
    case 'minLength':
      return `must have at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must have at most ${String(p.limit)} characters`;
    case 'minItems':
      return `must have at least ${String(p.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    default:
      return e.message ?? 'is invalid';
  }
}

/**
 * AJV's errors as one `{ field, message }` per field, with dotted paths (`endereco.uf`, `ctes.0.pernas.1`). A union's
 * branches are read together, so a message names every value or shape the field takes ("must be one of: AC, AL, …
 * or null"), never just the first branch's verdict ("must be null"); a field's other errors are joined with "; ".
 */
export function fieldErrors(error: FastifyError): FieldError[] {
  const prefix = error.validationContext && error.validationContext !== 'body' ? `${error.validationContext}.` : '';
  const byField = new Map<string, ValidatorError[]>();
  for (const e of (error.validation ?? []) as ValidatorError[]) {
    const field = fieldOf(prefix, e);
    byField.set(field, [...(byField.get(field) ?? []), e]);
  }
  return [...byField].map(([field, errors]) => ({ field, message: messageOf(errors) }));
}

function messageOf(errors: ValidatorError[]): string {
  const union = errors.some((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const values: unknown[] = [];
  let nullable = false;
  const others: string[] = [];
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    if (e.keyword === 'const') values.push(e.params.allowedValue);
    else if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) values.push(...(e.params.allowedValues as unknown[]));
    else if (union && e.keyword === 'type' && e.params.type === 'null') nullable = true;
    else others.push(sentence(e));
  }
  const alternatives = [...new Set(others)];
  if (values.length > 0) alternatives.unshift(values.length === 1 ? `must be ${shown(values[0])}` : `must be one of: ${listed(values)}`);
  if (nullable) alternatives.push('must be null');
  if (union) {
    // "must be one of: AC, AL, … or null", "must be >= 0 or null": every form the field takes, in one sentence.
    const [first, ...rest] = alternatives;
    if (!first) return 'does not match any accepted form';
    return [first, ...rest.map((a) => a.replace(/^must (be )?/, ''))].join(' or ');
  }
  return alternatives.join('; ') || 'is invalid';
}
