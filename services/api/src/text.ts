/**
 * What every string a client sends must be before it goes anywhere: PostgreSQL refuses U+0000 in `text` and
 * `jsonb`, and `jsonb` refuses a lone UTF-16 surrogate (a JSON `"\ud800"`). One place says so for every input.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is what this looks for
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Why the string cannot be accepted, or null when it can. */
export function textProblem(s: string): string | null {
  const m = UNSTORABLE.exec(s);
  if (!m) return null;
  return m[0] === '\u0000' ? 'must not contain the NUL character (U+0000)' : 'must not contain an unpaired UTF-16 surrogate';
}

/** A field name fit to show in an error message even when the client's name is the problem. */
// eslint-disable-next-line no-control-regex -- control characters are what this replaces
export const printable = (s: string): string => s.replace(/[\u0000-\u001f\u007f\p{Cs}]/gu, '\uFFFD');

/** Deeper than any body of the API nests (a CT-e draft reaches about 6 levels); PostgreSQL's jsonb has a stack limit. */
export const MAX_JSON_DEPTH = 32;

export interface TextFault {
  /** JSON-pointer-like path inside the input (`/motorista/nome`), empty for the input itself. */
  path: string;
  message: string;
}

/**
 * The first string (value or key) that cannot be accepted in a parsed input, or nesting beyond MAX_JSON_DEPTH.
 * Iterative, so that a hostile nesting cannot overflow the stack.
 */
export function findTextFault(input: unknown): TextFault | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: input, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { path, message: problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { path, message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}/${i}`, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const child = `${path}/${printable(key)}`;
      const problem = textProblem(key);
      if (problem) return { path: child, message: `field name ${problem}` };
      stack.push({ value: (value as Record<string, unknown>)[key], path: child, depth: depth + 1 });
    }
  }
  return null;
}
