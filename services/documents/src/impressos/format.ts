import { brlDeCentavos, milharBrasileiro } from '@frete/domain';

/**
 * How the DACTE prints values: Brazilian number and date formats, formatted documents, and text reduced to what
 * pdfkit's standard fonts can show (WinAnsi, a superset of Latin-1 for printable characters).
 */

/** Cents → "1.500,00" (no currency sign, as the DACTE's value boxes print them); an absent value prints nothing. */
export const money = (cents: number | null | undefined): string => (cents === null || cents === undefined ? '' : brlDeCentavos(cents));

/** A decimal as the XML writes it ("13000.0000", "12.00") → "13.000,0000", "12,00"; other text is kept. */
export function decimal(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return value;
  return `${m[1]}${milharBrasileiro(m[2]!)}${m[3] !== undefined ? `,${m[3]}` : ''}`;
}

/** CNPJ (numeric or alphanumeric, 14 characters) or CPF (11 digits), with their usual punctuation. */
export function document(value: string | null | undefined): string {
  if (!value) return '';
  if (/^[0-9A-Z]{12}\d{2}$/.test(value))
    return `${value.slice(0, 2)}.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-${value.slice(12)}`;
  if (/^\d{11}$/.test(value)) return `${value.slice(0, 3)}.${value.slice(3, 6)}.${value.slice(6, 9)}-${value.slice(9)}`;
  return value;
}

export function cep(value: string | null | undefined): string {
  if (!value) return '';
  return /^\d{8}$/.test(value) ? `${value.slice(0, 5)}-${value.slice(5)}` : value;
}

export function phone(value: string | null | undefined): string {
  if (!value) return '';
  if (/^\d{10}$/.test(value)) return `(${value.slice(0, 2)}) ${value.slice(2, 6)}-${value.slice(6)}`;
  if (/^\d{11}$/.test(value)) return `(${value.slice(0, 2)}) ${value.slice(2, 7)}-${value.slice(7)}`;
  return value;
}

/** "2018-10-31T17:47:16-03:00" → "31/10/2018 17:47:16", the wall-clock time written in the XML (no conversion). */
export function dateTime(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!m) return value;
  const date = `${m[3]}/${m[2]}/${m[1]}`;
  return m[4] ? `${date} ${m[4]}:${m[5]}:${m[6] ?? '00'}` : date;
}

/** The access key as auxiliary documents print it: 11 groups of 4. */
export const groupedKey = (key: string): string => key.replace(/(.{4})(?=.)/g, '$1 ');

// WinAnsiEncoding's printable characters beyond Latin-1 (code points 0x80–0x9F of the encoding).
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const printable = (ch: string) => {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch);
};

/**
 * Text that the standard PDF fonts can print: blanks (new lines, tabs, runs of spaces) become one space, and a
 * character outside WinAnsi loses its accent when that leaves a printable letter (ő → o), else becomes '?'.
 */
export function printableText(value: string | null | undefined): string {
  if (!value) return '';
  let out = '';
  for (const ch of value.normalize('NFC').replace(/\s+/g, ' ').trim()) {
    if (printable(ch)) out += ch;
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base.length > 0 && [...base].every(printable) ? base : '?';
    }
  }
  return out;
}
