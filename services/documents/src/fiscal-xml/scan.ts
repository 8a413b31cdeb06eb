/**
 * A minimal scanner over the raw XML text, to put the signature into the document without re-serialising it:
 * every byte before and after the insertion point stays as it was. It only has to follow markup (start and end
 * tags, comments, CDATA, processing instructions); the document has been parsed and found well-formed before.
 */

const nameAt = /[^\s/>]+/y;

function localName(qName: string): string {
  const colon = qName.indexOf(':');
  return colon < 0 ? qName : qName.slice(colon + 1);
}

/**
 * The offset of the `</…>` end tag of the parent of the only element `spec` designates (by local name, and its
 * parent's when given), where an appended child goes. Throws when there is not exactly one such element, when it
 * is the root, or when the markup does not nest.
 */
export function parentEndTagOffset(xml: string, spec: { name: string; parent?: string }): number {
  const { name } = spec;
  const stack: string[] = [];
  let found = 0;
  let parentDepth = -1;
  let result = -1;
  let i = 0;
  const skipTo = (terminator: string, from: number) => {
    const end = xml.indexOf(terminator, from);
    if (end < 0) throw new Error(`unterminated markup at offset ${from}`);
    return end + terminator.length;
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      i = skipTo('-->', lt + 4);
    } else if (xml.startsWith('<![CDATA[', lt)) {
      i = skipTo(']]>', lt + 9);
    } else if (xml.startsWith('<?', lt)) {
      i = skipTo('?>', lt + 2);
    } else if (xml.startsWith('<!', lt)) {
      throw new Error('declarations are not accepted');
    } else if (xml[lt + 1] === '/') {
      nameAt.lastIndex = lt + 2;
      const qName = nameAt.exec(xml)?.[0];
      if (!qName || stack.pop() !== qName) throw new Error(`end tag at offset ${lt} does not match its start tag`);
      if (stack.length === parentDepth && result < 0 && found === 1) result = lt;
      i = skipTo('>', lt);
    } else {
      nameAt.lastIndex = lt + 1;
      const qName = nameAt.exec(xml)?.[0];
      if (!qName) throw new Error(`malformed tag at offset ${lt}`);
      // Attribute values are quoted and may hold '>': walk them quote by quote.
      let j = lt + 1 + qName.length;
      let quote: string | null = null;
      for (; j < xml.length; j++) {
        const c = xml[j];
        if (quote) {
          if (c === quote) quote = null;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (j >= xml.length) throw new Error(`unterminated tag at offset ${lt}`);
      const selfClosing = xml[j - 1] === '/';
      if (
        localName(qName) === name &&
        (spec.parent === undefined || (stack.length > 0 && localName(stack[stack.length - 1]!) === spec.parent))
      ) {
        found++;
        parentDepth = stack.length - 1;
      }
      if (!selfClosing) stack.push(qName);
      i = j + 1;
    }
  }
  if (stack.length > 0) throw new Error('the document ends before its elements are closed');
  if (found !== 1) throw new Error(found === 0 ? `no element ${name}` : `${found} elements ${name}`);
  if (parentDepth < 0 || result < 0) throw new Error(`element ${name} has no parent element`);
  return result;
}
