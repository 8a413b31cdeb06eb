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

export function accessKeysInText(text: string): string[] {
  const tokens = text
    .toUpperCase()
    .split(/[^0-9A-Z]+/)
    .filter(Boolean)
    .map((t) => t.replace(/^(?:NFE|CTE|MDFE)(?=\d)/, ''));
  const found: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let joined = '';
    for (let j = i; j < tokens.length && joined.length < 44; j++) {
      joined += tokens[j];
      if (joined.length === 44 && plausibleKey(joined) && !found.includes(joined)) found.push(joined);
    }
  }
  return found;
}

/**
 * The document key of each page: the first valid key printed on it (a DANFE prints its own key in the header,
 * before any referenced key). Distinct, in page order.
 */
export function documentKeysOfPages(pages: string[]): string[] {
  const keys: string[] = [];
  for (const page of pages) {
    const first = accessKeysInText(page)[0];
    if (first && !keys.includes(first)) keys.push(first);
  }
  return keys;
}

/** Model of a key (positions 21–22): `55` NF-e, `57` CT-e, `58` MDF-e, `65` NFC-e. */
export const modelOfKey = (key: string): string => key.slice(20, 22);
