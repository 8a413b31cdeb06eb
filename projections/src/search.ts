/** Lower case without accents: how names are stored for search and how search terms are compared with them. */
export const searchable = (text: string | null | undefined): string =>
  (text ?? '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();

/** A LIKE pattern that matches the term literally anywhere. */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
