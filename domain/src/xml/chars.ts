/** Characters XML 1.0 does not allow anywhere (its `Char` production): C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates. */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\p{Cs}]/u;

/**
 * Why the text cannot be an XML document because of a character in it, or null. Such a document is not
 * well-formed, whatever a lenient parser makes of it; and its values could not be stored (PostgreSQL refuses U+0000).
 */
export function illegalXmlChar(xml: string): string | null {
  const m = NOT_XML_CHAR.exec(xml);
  if (!m) return null;
  const line = xml.slice(0, m.index).split('\n').length;
  const code = m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `malformed XML at line ${line}: the character U+${code} is not allowed in XML`;
}
