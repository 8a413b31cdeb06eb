/** How much of a value taken from the client's document an error message repeats. */
export const EXCERPT_MAX = 60;

/**
 * A client-supplied text as an error message may quote it: whole when short, else its start and its length, so
 * an answer never echoes a large input back.
 */
export function excerpt(text: string, max = EXCERPT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
