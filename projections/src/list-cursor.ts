/**
 * Keyset cursors for the lists that can grow large: the opaque `cursor` names the last row a page gave (its sort
 * key), and the next page starts after it. Unlike an offset, it neither repeats nor skips a row when rows are
 * inserted or removed between two pages.
 */

/** How a sort key's value travels in a cursor (as text, exact: a timestamp keeps its microseconds). */
export type KeyType = 'timestamptz' | 'integer' | 'text';

export interface OrderKey {
  /** The SQL expression sorted on; with the last key, it must be unique within the list (an id). */
  expr: string;
  dir: 'ASC' | 'DESC';
  type: KeyType;
}

/** The order of most lists: newest first by `at`, ties broken by the row's `id`. */
export const newestFirst = (at: string, id: string): OrderKey[] => [
  { expr: at, dir: 'DESC', type: 'timestamptz' },
  { expr: id, dir: 'ASC', type: 'text' },
];

/** A cursor that is not one this list gave: malformed, altered, or from another list. */
export class CursorInvalido extends Error {}

const MAX_VALUE = 200;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?([+-](0\d|1[0-5])(:?[0-5]\d)?|Z)$/;
const INTEGER = /^-?\d{1,18}$/;
// eslint-disable-next-line no-control-regex -- a NUL or control character is not a sort key PostgreSQL takes
const CONTROL = /[\u0000-\u001f]/;
/** How each type's value is cast back in SQL: integers as bigint, which takes every value the pattern allows. */
const CAST: Record<KeyType, string> = { timestamptz: 'timestamptz', integer: 'bigint', text: 'text' };

/** A timestamp PostgreSQL reads as written: every field in range, the day existing in its month (no 30 February). */
function timestampValido(v: string): boolean {
  const m = TIMESTAMP.exec(v);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s);
  return (
    y >= 1000 &&
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi &&
    t.getUTCSeconds() === s
  );
}

const valid = (type: KeyType, v: unknown): v is string =>
  typeof v === 'string' &&
  v.length <= MAX_VALUE &&
  (type === 'timestamptz' ? timestampValido(v) : type === 'integer' ? INTEGER.test(v) : !CONTROL.test(v));

export function encodeCursor(list: string, values: string[]): string {
  return Buffer.from(JSON.stringify({ l: list, v: values }), 'utf8').toString('base64url');
}

export function decodeCursor(list: string, cursor: string, keys: readonly OrderKey[]): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new CursorInvalido('not a cursor this API gave');
  }
  const c = parsed as { l?: unknown; v?: unknown } | null;
  if (!c || typeof c !== 'object' || !Array.isArray(c.v)) throw new CursorInvalido('not a cursor this API gave');
  if (c.l !== list) throw new CursorInvalido('a cursor of another list');
  const values = c.v as unknown[];
  if (values.length !== keys.length || !values.every((v, i) => valid(keys[i]!.type, v)))
    throw new CursorInvalido('not a cursor this API gave');
  return values as string[];
}

/**
 * "Comes after `values` in this order": (k1 after v1) OR (k1 = v1 AND k2 after v2) …, each key in its own direction.
 * `param` adds a value as a query parameter and returns its placeholder.
 */
export function afterClause(keys: readonly OrderKey[], values: string[], param: (v: unknown) => string): string {
  const placeholders = values.map((v, i) => `${param(v)}::${CAST[keys[i]!.type]}`);
  const branches = keys.map((k, i) => {
    const equal = keys.slice(0, i).map((e, j) => `${e.expr} = ${placeholders[j]}`);
    return [...equal, `${k.expr} ${k.dir === 'DESC' ? '<' : '>'} ${placeholders[i]}`].join(' AND ');
  });
  return `(${branches.map((b) => `(${b})`).join(' OR ')})`;
}
