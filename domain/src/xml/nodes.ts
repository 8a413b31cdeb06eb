/** An element as fast-xml-parser gives it: children by tag, attributes as `@_name`, mixed text as `#text`. */
export type XmlNode = Record<string, unknown>;

/** An element with children or attributes only, or a repeated tag, has no text of its own: null. */
export const text = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && '#text' in (v as XmlNode)) return String((v as XmlNode)['#text']);
  if (typeof v === 'object') return null;
  return String(v);
};

export const node = (v: unknown): XmlNode | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as XmlNode) : null);

/** `missing` builds the reader's own error, so callers keep their error class and code. */
export function required(value: string | null, what: string, missing: (message: string) => Error): string {
  if (value === null || value === '') throw missing(`missing ${what}`);
  return value;
}
