import { isValidAccessKey } from '../fiscal/access-key';
import { ufByCode } from '../fiscal/ufs';

/**
 * Access keys printed in a text (a DANFE's, extracted from its PDF). A key is printed whole or in groups (usually
 * 11 groups of 4 separated by spaces), sometimes after the prefix `NFe`; it is found by joining consecutive
 * alphanumeric tokens that add up to exactly 44 characters and keeping those whose shape and check digit are right.
 * Tokens are never split, so unrelated digits glued to a key cannot shift it; a key must also name a real UF
 * and a month, which keeps numbers that merely happen to line up from passing for a key.
 */
const plausibleKey = (key: string): boolean => {
  const month = Number(key.slice(4, 6));
  return isValidAccessKey(key) && ufByCode(key.slice(0, 2)) !== undefined && month >= 1 && month <= 12;
};

/** The distinct keys in `text`, in order, up to `limit`: one pass, each token joined to at most the next 43. */
function keysIn(text: string, limit: number): string[] {
  const tokens = text
    .toUpperCase()
    .split(/[^0-9A-Z]+/)
    .filter(Boolean)
    .map((t) => t.replace(/^(?:NFE|CTE|MDFE)(?=\d)/, ''));
  const found = new Set<string>();
  // The shortest run of tokens from `i` that reaches 44 characters is tokens[i, end), `length` characters long.
  let end = 0;
  let length = 0;
  for (let i = 0; i < tokens.length && found.size < limit; i++) {
    while (end < tokens.length && length < 44) length += tokens[end++]!.length;
    if (length === 44) {
      const joined = tokens.slice(i, end).join('');
      if (plausibleKey(joined)) found.add(joined);
    }
    length -= tokens[i]!.length;
  }
  return [...found];
}

export function accessKeysInText(text: string): string[] {
  return keysIn(text, Infinity);
}

/**
 * The document key of each page: the first valid key printed on it (a DANFE prints its own key in the header,
 * before any referenced key). Distinct, in page order.
 */
export function documentKeysOfPages(pages: string[]): string[] {
  const keys: string[] = [];
  for (const page of pages) {
    const first = keysIn(page, 1)[0];
    if (first && !keys.includes(first)) keys.push(first);
  }
  return keys;
}

/** Model of a key (positions 21–22): `55` NF-e, `57` CT-e, `58` MDF-e, `65` NFC-e. */
export const modelOfKey = (key: string): string => key.slice(20, 22);
