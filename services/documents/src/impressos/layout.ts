import PDFDocument from 'pdfkit';
import bwipjs from 'bwip-js';
import { groupedKey, printableText } from './format';

/**
 * What the auxiliary documents (DACTE, DAMDFE) have in common: portrait A4 sheets of boxed fields, each with a small
 * bold label above its value, grey title bands, two-sided grids of rows, and continuation sheets with a compact
 * header. Fonts are pdfkit's standard Helvetica (WinAnsi): accented Portuguese prints as is, other characters are
 * reduced by `printableText`. Text is placed line by line at computed positions, never through pdfkit's line
 * wrapper, so the layout never adds pages by itself and each writer decides what goes to the next sheet.
 */

export type Font = 'Helvetica' | 'Helvetica-Bold';
export type Align = 'left' | 'center' | 'right';

export interface LineOptions {
  font?: Font;
  size?: number;
  align?: Align;
  /** The smallest size the text may shrink to before it is cut with an ellipsis. */
  min?: number;
}

export const PAGE_W = 595.28;
export const X0 = 12;
export const CW = 571;
export const TOP = 10;
export const BOTTOM = 832;
export const GAP = 3;
export const BAND_H = 9;
export const ROW_H = 8.5;
export const LABEL = 5.5;
export const VALUE = 7.5;
/** Lines of free text (observations, continued lists): size and spacing. */
export const TEXT_SIZE = 6.5;
export const TEXT_LINE_H = 7.6;
/** Where the content of a sheet starts: below the strip that carries the sandbox and cancellation notices. */
export const CONTENT_TOP = TOP + 10;
/** Height of the compact header of a continuation sheet. */
export const COMPACT_HEADER_H = 44;

/** A column of a grid; the last one takes the width left. */
export interface GridColumn {
  label: string;
  width?: number;
}

export interface GridOptions {
  title: string;
  x: number;
  y: number;
  w: number;
  columns: GridColumn[];
  rows: string[][];
  /** How many lines the grid is drawn for (rows beyond are not drawn). */
  lines: number;
  /** Total height including the band; by default just the lines. */
  height?: number;
  /** Rows run left to right over this many sides before going down a line. */
  sides?: number;
  size?: number;
}

/** What a continuation sheet needs to say which document it continues. */
export interface CompactHeader {
  title: string;
  issuer: string;
  issuerLine: string;
  modelo: string;
  serie: string;
  numero: string;
  emissao: string;
  chave: string;
  /** Draws the "FL" box: a writer may only know the number of sheets once it has drawn them all. */
  sheet: (x: number, y: number, w: number, h: number) => void;
}

/** A run of items (grid rows or text lines) that may be split across continuation sheets. */
export interface FlowMetrics {
  items: number;
  perLine: number;
  lineHeight: number;
  /** The height it takes with no line: band, column headers, padding. */
  chrome: number;
}

export interface Placed<T> {
  block: T;
  from: number;
  to: number;
  y: number;
}

export const gridFlow = (items: number, sides: number): FlowMetrics => ({
  items,
  perLine: sides,
  lineHeight: ROW_H,
  chrome: BAND_H + 8 + 2,
});
export const textFlow = (items: number): FlowMetrics => ({ items, perLine: 1, lineHeight: TEXT_LINE_H, chrome: BAND_H + 4 });
export const flowHeight = (m: FlowMetrics, items: number): number => m.chrome + Math.ceil(items / m.perLine) * m.lineHeight;

/** Lays the blocks on sheets from `top` to BOTTOM, splitting a block across sheets when needed. */
export function paginate<T>(blocks: readonly T[], metrics: (block: T) => FlowMetrics, top: number): Placed<T>[][] {
  const pages: Placed<T>[][] = [];
  let current: Placed<T>[] = [];
  let y = top;
  for (const block of blocks) {
    const m = metrics(block);
    let from = 0;
    while (from < m.items) {
      const free = BOTTOM - y - flowHeight(m, 0);
      const fit = Math.floor(free / m.lineHeight) * m.perLine;
      if (fit < m.perLine) {
        // An empty sheet that cannot hold one line would loop for ever.
        if (current.length === 0) throw new Error('a continuation sheet cannot hold one line of the block');
        pages.push(current);
        current = [];
        y = top;
        continue;
      }
      const to = Math.min(m.items, from + fit);
      current.push({ block, from, to, y });
      y += flowHeight(m, to - from) + GAP;
      from = to;
    }
  }
  if (current.length > 0) pages.push(current);
  return pages;
}

export function code128Png(text: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'code128', text, scale: 3, height: 12, includetext: false, paddingwidth: 0, paddingheight: 0 });
}

export function qrCodePng(text: string): Promise<Buffer> {
  // eclevel is a QR option that bwip-js's RenderOptions type does not declare.
  return bwipjs.toBuffer({ bcid: 'qrcode', text, scale: 4, eclevel: 'M', paddingwidth: 0, paddingheight: 0 } as bwipjs.RenderOptions);
}

/**
 * An A4 document drawn by `draw`, as a buffer. Pages are buffered so that a writer can go back to a sheet (to write
 * "FL n/N" once N is known).
 */
export async function renderPdf(info: PDFKit.DocumentInfo, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    autoFirstPage: false,
    bufferPages: true,
    info: { ...info, Creator: 'frete-fiscal', Producer: 'frete-fiscal' },
  });
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc);
  doc.flushPages();
  doc.end();
  return done;
}

const RED = '#c00000';

/** The drawing primitives; a document's writer extends it with its sections. */
export class PdfLayout {
  constructor(protected readonly doc: PDFKit.PDFDocument) {}

  protected width(text: string, font: Font, size: number): number {
    return this.doc.font(font).fontSize(size).widthOfString(text);
  }

  /** Shrinks the size down to `min` to fit `width`, then cuts the text with an ellipsis. */
  protected fit(text: string, width: number, font: Font, size: number, min = Math.min(size, 5)): { text: string; size: number } {
    let s = size;
    while (s > min && this.width(text, font, s) > width) s = Math.max(min, s - 0.5);
    if (this.width(text, font, s) <= width) return { text, size: s };
    let cut = text;
    while (cut.length > 0 && this.width(`${cut}…`, font, s) > width) cut = cut.slice(0, -1);
    return { text: cut.length > 0 ? `${cut.trimEnd()}…` : '', size: s };
  }

  /** One line of text, fitted into `width`, its top at `y`. */
  protected line(text: string | null | undefined, x: number, y: number, width: number, o: LineOptions = {}) {
    const font = o.font ?? 'Helvetica';
    const value = printableText(text);
    if (!value || width <= 0) return;
    const f = this.fit(value, width, font, o.size ?? VALUE, o.min);
    const w = this.width(f.text, font, f.size);
    const dx = o.align === 'center' ? (width - w) / 2 : o.align === 'right' ? width - w : 0;
    this.doc
      .font(font)
      .fontSize(f.size)
      .text(f.text, x + dx, y, { lineBreak: false });
  }

  /** Words into lines of at most `width`; a word longer than a line is split. */
  protected wrap(text: string, width: number, font: Font, size: number): string[] {
    const lines: string[] = [];
    let current = '';
    for (const word of printableText(text).split(' ').filter(Boolean)) {
      const candidate = current ? `${current} ${word}` : word;
      if (this.width(candidate, font, size) <= width) {
        current = candidate;
        continue;
      }
      if (current) lines.push(current);
      current = word;
      while (this.width(current, font, size) > width && current.length > 1) {
        let n = current.length - 1;
        while (n > 1 && this.width(current.slice(0, n), font, size) > width) n--;
        lines.push(current.slice(0, n));
        current = current.slice(n);
      }
    }
    if (current) lines.push(current);
    return lines;
  }

  /** At most `max` lines; when the text is longer, the last line ends with an ellipsis. */
  protected wrapAtMost(text: string, width: number, font: Font, size: number, max: number): string[] {
    const lines = this.wrap(text, width, font, size);
    if (lines.length <= max) return lines;
    const last = this.fit(`${lines[max - 1]} ${lines[max]}`, width, font, size, size).text;
    return [...lines.slice(0, max - 1), last.endsWith('…') ? last : `${last}…`];
  }

  protected box(x: number, y: number, w: number, h: number) {
    this.doc.lineWidth(0.5).strokeColor('black').rect(x, y, w, h).stroke();
  }

  protected label(text: string, x: number, y: number, w: number, align: Align = 'left') {
    this.line(text, x + 2, y + 1.5, w - 4, { font: 'Helvetica-Bold', size: LABEL, align, min: 4 });
  }

  /** A labelled box with one value, bottom-aligned. */
  protected field(
    x: number,
    y: number,
    w: number,
    h: number,
    label: string,
    value: string | null | undefined,
    o: { size?: number; bold?: boolean; align?: Align } = {},
  ) {
    this.box(x, y, w, h);
    this.label(label, x, y, w);
    const size = o.size ?? VALUE;
    this.line(value, x + 2, y + h - size * 1.2 - 1.5, w - 4, { size, font: o.bold ? 'Helvetica-Bold' : 'Helvetica', align: o.align });
  }

  /** A small bold label followed by its value, on one line of a box. */
  protected pair(label: string, value: string | null | undefined, x: number, y: number, w: number) {
    this.line(label, x, y + 1.2, w, { font: 'Helvetica-Bold', size: LABEL });
    const lw = this.width(printableText(label), 'Helvetica-Bold', LABEL) + 3;
    this.line(value, x + lw, y, w - lw - 2, { size: 7 });
  }

  /** A grey title band across a section; the title is centred on the band's height. */
  protected band(title: string, x: number, y: number, w: number, o: { h?: number; size?: number } = {}) {
    const h = o.h ?? BAND_H;
    const size = o.size ?? 6;
    this.doc.save().rect(x, y, w, h).fillColor('#e4e4e4').fill().restore();
    this.box(x, y, w, h);
    this.doc.fillColor('black');
    // pdfkit places text by the top of its line box; the glyphs sit a little below the middle of the em.
    this.line(title, x + 2, y + (h - size) / 2 + 0.3, w - 4, { font: 'Helvetica-Bold', size, align: 'center' });
  }

  /** A band and a box of free-text lines, `rows` lines tall. */
  protected textBox(title: string, lines: string[], y: number, rows: number, x = X0, w = CW): number {
    this.band(title, x, y, w);
    const top = y + BAND_H;
    const h = rows * TEXT_LINE_H + 4;
    this.box(x, top, w, h);
    lines.forEach((l, i) => this.line(l, x + 3, top + 2.5 + i * TEXT_LINE_H, w - 6, { size: TEXT_SIZE }));
    return top + h;
  }

  /** A band, then rows under column headers, repeated over `sides` sides; returns the bottom. */
  protected grid(o: GridOptions): number {
    const sides = o.sides ?? 1;
    this.band(o.title, o.x, o.y, o.w);
    const top = o.y + BAND_H;
    const h = o.height !== undefined ? o.height - BAND_H : 8 + o.lines * ROW_H + 2;
    const side = o.w / sides;
    this.box(o.x, top, o.w, h);
    for (let s = 1; s < sides; s++)
      this.doc
        .lineWidth(0.5)
        .moveTo(o.x + s * side, top)
        .lineTo(o.x + s * side, top + h)
        .stroke();
    let used = 0;
    const cols = o.columns.map((c, i) => {
      const width = i === o.columns.length - 1 ? side - used : (c.width ?? 0);
      // The first column keeps clear of the box's border; the others start at their rule.
      const col = { label: c.label, dx: i === 0 ? 2 : used, width };
      used += width;
      return col;
    });
    for (let s = 0; s < sides; s++) {
      const sx = o.x + s * side;
      for (const c of cols) this.line(c.label, sx + c.dx, top + 1.5, c.width - 2, { font: 'Helvetica-Bold', size: LABEL });
    }
    o.rows.slice(0, o.lines * sides).forEach((row, i) => {
      const sx = o.x + (i % sides) * side;
      const ry = top + 8 + Math.floor(i / sides) * ROW_H;
      cols.forEach((c, j) => this.line(row[j], sx + c.dx, ry, c.width - 3, { size: o.size ?? 6.3 }));
    });
    return top + h;
  }

  /** The compact header of a continuation sheet: issuer, document, model, series, number, sheet, issue and key. */
  protected compactHeader(y: number, c: CompactHeader): number {
    const h = COMPACT_HEADER_H / 2;
    this.box(X0, y, 230, 2 * h);
    const name = this.wrapAtMost(c.issuer, 222, 'Helvetica-Bold', 8, 2);
    name.forEach((l, i) => this.line(l, X0 + 4, y + 6 + i * 9.5, 222, { font: 'Helvetica-Bold', size: 8, align: 'center' }));
    this.line(c.issuerLine, X0 + 4, y + 31, 222, { size: 6.5, align: 'center' });
    this.box(X0 + 230, y, 90, 2 * h);
    this.line(c.title, X0 + 230, y + 8, 90, { font: 'Helvetica-Bold', size: 13, align: 'center' });
    this.line('CONTINUAÇÃO', X0 + 230, y + 26, 90, { font: 'Helvetica-Bold', size: 7, align: 'center' });
    const x = X0 + 320;
    this.field(x, y, 40, h, 'MODELO', c.modelo, { align: 'center' });
    this.field(x + 40, y, 40, h, 'SÉRIE', c.serie, { align: 'center' });
    this.field(x + 80, y, 70, h, 'NÚMERO', c.numero, { align: 'center', bold: true });
    c.sheet(x + 150, y, 40, h);
    this.field(x + 190, y, CW - 510, h, 'EMISSÃO', c.emissao, { align: 'center' });
    this.field(x, y + h, CW - 320, h, 'CHAVE DE ACESSO', groupedKey(c.chave), { bold: true, align: 'center' });
    return y + 2 * h;
  }

  /** The strip above everything, in red: sandbox and cancellation notices. */
  protected notices(notes: string[]) {
    if (notes.length === 0) return;
    this.doc.fillColor(RED);
    this.line(notes.join('   -   '), X0, TOP, CW, { font: 'Helvetica-Bold', size: 7.5, align: 'center' });
    this.doc.fillColor('black');
  }

  /**
   * Large diagonal markings across the sheet (the document's status, "SEM VALOR FISCAL"), under a light opacity so
   * that the content stays readable.
   */
  protected watermarks(status: string | null, sandbox: boolean) {
    const marks: { text: string; size: number; cy: number }[] = [];
    if (status) marks.push({ text: status, size: 80, cy: sandbox ? 330 : 430 });
    if (sandbox) marks.push({ text: 'SEM VALOR FISCAL', size: 54, cy: status ? 560 : 430 });
    for (const m of marks) {
      const w = this.width(m.text, 'Helvetica-Bold', m.size);
      this.doc.save();
      this.doc.translate(PAGE_W / 2, m.cy).rotate(-40);
      this.doc
        .fillColor(RED)
        .fillOpacity(0.16)
        .font('Helvetica-Bold')
        .fontSize(m.size)
        .text(m.text, -w / 2, -m.size / 2, { lineBreak: false });
      this.doc.restore();
    }
    this.doc.fillColor('black').fillOpacity(1);
  }
}
