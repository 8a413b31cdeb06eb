/** Lower case without accents: how names are stored for search and how search terms are compared with them. */
export const searchable = (text: string | null | undefined): string =>
  (text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

/** The term with LIKE's wildcards (`%`, `_`) and its escape (backslash, PostgreSQL's default) taken literally. */
const literal = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern that matches the term literally anywhere. */
export const containsPattern = (term: string): string => `%${literal(term)}%`;

/** A LIKE pattern that matches the term literally at the start. */
export const startsWithPattern = (term: string): string => `${literal(term)}%`;
