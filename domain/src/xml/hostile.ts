/** Deeper than any fiscal layout nests (CT-e reaches about 12 levels); beyond it, the input is an attack. */
export const MAX_XML_DEPTH = 48;

/** The largest XML any intake accepts (an NF-e file: 10 MB); anything longer is refused before it is looked at. */
export const MAX_XML_LENGTH = 10 * 1024 * 1024;

/**
 * Cheap checks on the raw text before any parser runs, so hostile input costs no parsing work: size, DOCTYPE and
 * entity declarations (no entity can then be expanded) and absurd nesting. Returns why the XML is refused, or null
 * when it may be parsed. Every check is one pass over the text: no pattern here may backtrack.
 */
export function hostilityOf(xml: string): string | null {
  if (xml.length > MAX_XML_LENGTH) return `XML longer than ${MAX_XML_LENGTH} characters`;
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) return 'DOCTYPE and entity declarations are not accepted';
  if (nestsDeeperThan(xml, MAX_XML_DEPTH)) return `XML nested deeper than ${MAX_XML_DEPTH} levels`;
  return null;
}

const SLASH = 0x2f;
const GT = 0x3e;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/** Index just past `terminator` at or after `from`, or -1 when the text ends first. */
function after(xml: string, terminator: string, from: number): number {
  const at = xml.indexOf(terminator, from);
  return at < 0 ? -1 : at + terminator.length;
}

/** The `>` that closes the tag opened before `from`; quoted attribute values may hold `>`. -1 when none does. */
function tagEnd(xml: string, from: number): number {
  let quote = 0;
  for (let i = from; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === QUOTE || c === APOSTROPHE) quote = c;
    else if (c === GT) return i;
  }
  return -1;
}

/**
 * Follows the markup once, left to right (every step moves past what it read): start tags open a level, end tags
 * close one, comments, CDATA, processing instructions and declarations are skipped whole. Markup that never ends
 * stops the walk: the parser refuses that text as malformed anyway.
 */
function nestsDeeperThan(xml: string, max: number): boolean {
  let depth = 0;
  for (let lt = xml.indexOf('<'); lt >= 0; ) {
    let next: number;
    if (xml.startsWith('<!--', lt)) next = after(xml, '-->', lt + 4);
    else if (xml.startsWith('<![CDATA[', lt)) next = after(xml, ']]>', lt + 9);
    else if (xml.startsWith('<?', lt)) next = after(xml, '?>', lt + 2);
    else if (xml.startsWith('<!', lt) || xml.startsWith('</', lt)) {
      if (xml.charCodeAt(lt + 1) === SLASH) depth--;
      next = after(xml, '>', lt + 2);
    } else {
      const end = tagEnd(xml, lt + 1);
      if (end >= 0 && xml.charCodeAt(end - 1) !== SLASH && ++depth > max) return true;
      next = end < 0 ? -1 : end + 1;
    }
    if (next < 0) return false;
    lt = xml.indexOf('<', next);
  }
  return false;
}
