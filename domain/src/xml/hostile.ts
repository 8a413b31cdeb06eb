/** Deeper than any fiscal layout nests (CT-e reaches about 12 levels); beyond it, the input is an attack. */
export const MAX_XML_DEPTH = 48;

/**
 * Cheap checks on the raw text before any parser runs, so hostile input costs no parsing work: DOCTYPE and
 * entity declarations (no entity can then be expanded) and absurd nesting. Returns why the XML is refused, or
 * null when it may be parsed.
 */
export function hostilityOf(xml: string): string | null {
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) return 'DOCTYPE and entity declarations are not accepted';
  let depth = 0;
  const tags = /<(\/?)[A-Za-z_][^>]*?(\/?)>/g;
  for (let m = tags.exec(xml); m; m = tags.exec(xml)) {
    if (m[1]) depth--;
    else if (!m[2] && ++depth > MAX_XML_DEPTH) return `XML nested deeper than ${MAX_XML_DEPTH} levels`;
  }
  return null;
}
