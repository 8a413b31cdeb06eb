import PDFDocument from 'pdfkit';
import bwipjs from 'bwip-js';
import { type CteLido, type Environment, type ParteLida } from '@frete/contracts';
import { cep, dateTime, decimal, document, groupedKey, money, phone, printableText } from './format';
import { qrCodeText } from '@frete/domain';

/**
 * The DACTE (Documento Auxiliar do CT-e), portrait A4, laid out like the model of the CT-e manual: delivery receipt,
 * header (issuer, DACTE and modal, Code-128 barcode of the access key, QR code, model, series, number, sheet, issue
 * date, authorization protocol), type of CT-e and service, taker, CFOP, start and end of the service, the five
 * parties, cargo, components of the service value, ICMS, originating documents, observations, modal data and the
 * reserved boxes. Whatever does not fit on the first sheet (documents, observations, components, quantities) goes
 * on continuation sheets with a compact header, numbered in "FL n/N".
 *
 * Fonts are pdfkit's standard Helvetica (WinAnsi): accented Portuguese prints as is, other characters are reduced
 * by `printableText`. Text is placed line by line at computed positions (never through pdfkit's line wrapper), so
 * the layout never adds pages by itself.
 */

export interface DacteOptions {
  /** The deployment's environment; a sandbox deployment, or a CT-e of tpAmb 2, gets the "SEM VALOR FISCAL" marking. */
  environment: Environment;
  /** The CT-e was cancelled: each sheet gets the "CANCELADO" marking. */
  cancelado?: boolean;
}

const PAGE_W = 595.28;
const X0 = 12;
const CW = 571;
const TOP = 10;
const BOTTOM = 832;
const GAP = 3;
const BAND_H = 9;
const ROW_H = 8.5;
const LABEL = 5.5;
const VALUE = 7.5;

const TIPO_CTE: Record<number, string> = { 0: 'NORMAL', 1: 'COMPLEMENTO DE VALORES', 2: 'ANULAÇÃO', 3: 'SUBSTITUTO' };
const TIPO_SERVICO: Record<number, string> = {
  0: 'NORMAL', 1: 'SUBCONTRATAÇÃO', 2: 'REDESPACHO', 3: 'REDESPACHO INTERMEDIÁRIO', 4: 'SERVIÇO VINCULADO A MULTIMODAL',
};
const TOMADOR: Record<string, string> = {
  remetente: 'REMETENTE', expedidor: 'EXPEDIDOR', recebedor: 'RECEBEDOR', destinatario: 'DESTINATÁRIO', outros: 'OUTROS',
};
const MODAL: Record<string, string> = {
  '01': 'RODOVIÁRIO', '02': 'AÉREO', '03': 'AQUAVIÁRIO', '04': 'FERROVIÁRIO', '05': 'DUTOVIÁRIO', '06': 'MULTIMODAL',
};
const FORMA_EMISSAO: Record<number, string> = { 1: 'NORMAL', 4: 'EPEC PELA SVC', 5: 'CONTINGÊNCIA FSDA', 7: 'SVC-RS', 8: 'SVC-SP' };
const UNIDADE: Record<string, string> = { '00': 'M3', '01': 'KG', '02': 'TON', '03': 'UNIDADE', '04': 'LITROS', '05': 'MMBTU' };
const CST: Record<string, string> = {
  '00': '00 - TRIBUTAÇÃO NORMAL DO ICMS',
  '20': '20 - TRIBUTAÇÃO COM BC REDUZIDA DO ICMS',
  '40': '40 - ICMS ISENÇÃO',
  '41': '41 - ICMS NÃO TRIBUTADA',
  '51': '51 - ICMS DIFERIDO',
  '60': '60 - ICMS COBRADO POR SUBSTITUIÇÃO TRIBUTÁRIA',
  '90': '90 - ICMS OUTROS',
};

type Font = 'Helvetica' | 'Helvetica-Bold';
type Align = 'left' | 'center' | 'right';

interface DocRow {
  tipo: string;
  emitente: string;
  documento: string;
}

/** A run of content that continues on the continuation sheets. */
type Continuation = { kind: 'docs'; title: string; rows: DocRow[] } | { kind: 'text'; title: string; lines: string[] };

interface Placed {
  block: Continuation;
  from: number;
  to: number;
  y: number;
}

function icmsSituacao(icms: CteLido['icms']): string {
  if (!icms) return '';
  if (icms.grupo === 'ICMSSN') return 'SIMPLES NACIONAL';
  if (icms.grupo === 'ICMSOutraUF') return '90 - ICMS DEVIDO À UF DE ORIGEM DA PRESTAÇÃO (OUTRA UF)';
  return (icms.cst ? CST[icms.cst] : undefined) ?? icms.cst ?? icms.grupo;
}

/** The originating documents as the DACTE lists them: NF-e by key (issuer's CNPJ read from it), then the rest. */
function documentRows(cte: CteLido): DocRow[] {
  const byKey = (tipo: string) => (key: string): DocRow => ({ tipo, emitente: document(key.slice(6, 20)), documento: key });
  return [
    ...cte.nfe_chaves.map(byKey('NF-E')),
    ...(cte.outros_documentos ?? []).map((d) => ({
      tipo: d.tipo === 'nf' ? `NF ${d.modelo ?? ''}`.trim() : d.descricao ? `OUTROS` : `OUTROS ${d.modelo ?? ''}`.trim(),
      emitente: d.tipo === 'nf' ? document(cte.remetente?.documento) : '',
      documento: [d.descricao, [d.serie, d.numero].filter(Boolean).join('/'), d.emissao ? dateTime(d.emissao) : null].filter(Boolean).join(' - '),
    })),
    ...cte.cte_anteriores.map(byKey('CT-E ANT.')),
  ];
}

function observationText(cte: CteLido): string[] {
  const parts = [printableText(cte.observacoes)];
  for (const c of cte.campos_observacao ?? []) {
    parts.push(printableText(`${c.destino === 'fisco' ? 'FISCO - ' : ''}${c.campo ?? ''}: ${c.texto ?? ''}`));
  }
  return parts.filter((p) => p.length > 0);
}

async function code128(key: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'code128', text: key, scale: 3, height: 12, includetext: false, paddingwidth: 0, paddingheight: 0 });
}

async function qrPng(text: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'qrcode', text, scale: 4, eclevel: 'M', paddingwidth: 0, paddingheight: 0 } as bwipjs.RenderOptions);
}

/** Draws one DACTE into a pdfkit document. */
class DacteWriter {
  private readonly sandbox: boolean;
  private page = 0;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly cte: CteLido,
    private readonly options: DacteOptions,
    private readonly barcode: Buffer,
    private readonly qr: Buffer | null,
  ) {
    this.sandbox = options.environment === 'homologacao' || cte.ambiente === 'homologacao';
  }

  // ---- primitives --------------------------------------------------------------------------------------------

  private width(text: string, font: Font, size: number): number {
    return this.doc.font(font).fontSize(size).widthOfString(text);
  }

  /** Shrinks the size down to `min` to fit `width`, then cuts the text with an ellipsis. */
  private fit(text: string, width: number, font: Font, size: number, min = Math.min(size, 5)): { text: string; size: number } {
    let s = size;
    while (s > min && this.width(text, font, s) > width) s = Math.max(min, s - 0.5);
    if (this.width(text, font, s) <= width) return { text, size: s };
    let cut = text;
    while (cut.length > 0 && this.width(`${cut}…`, font, s) > width) cut = cut.slice(0, -1);
    return { text: cut.length > 0 ? `${cut.trimEnd()}…` : '', size: s };
  }

  /** One line of text, fitted into `width`, its top at `y`. */
  private line(text: string | null | undefined, x: number, y: number, width: number, o: { font?: Font; size?: number; align?: Align; min?: number } = {}) {
    const font = o.font ?? 'Helvetica';
    const value = printableText(text);
    if (!value || width <= 0) return;
    const f = this.fit(value, width, font, o.size ?? VALUE, o.min);
    const w = this.width(f.text, font, f.size);
    const dx = o.align === 'center' ? (width - w) / 2 : o.align === 'right' ? width - w : 0;
    this.doc.font(font).fontSize(f.size).text(f.text, x + dx, y, { lineBreak: false });
  }

  /** Words into lines of at most `width`; a word longer than a line is split. */
  private wrap(text: string, width: number, font: Font, size: number): string[] {
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
  private wrapAtMost(text: string, width: number, font: Font, size: number, max: number): string[] {
    const lines = this.wrap(text, width, font, size);
    if (lines.length <= max) return lines;
    const last = this.fit(`${lines[max - 1]} ${lines[max]}`, width, font, size, size).text;
    return [...lines.slice(0, max - 1), last.endsWith('…') ? last : `${last}…`];
  }

  private box(x: number, y: number, w: number, h: number) {
    this.doc.lineWidth(0.5).strokeColor('black').rect(x, y, w, h).stroke();
  }

  private label(text: string, x: number, y: number, w: number, align: Align = 'left') {
    this.line(text, x + 2, y + 1.5, w - 4, { font: 'Helvetica-Bold', size: LABEL, align, min: 4 });
  }

  /** A labelled box with one value, bottom-aligned. */
  private field(x: number, y: number, w: number, h: number, label: string, value: string | null | undefined, o: { size?: number; bold?: boolean; align?: Align } = {}) {
    this.box(x, y, w, h);
    this.label(label, x, y, w);
    const size = o.size ?? VALUE;
    this.line(value, x + 2, y + h - size * 1.2 - 1.5, w - 4, { size, font: o.bold ? 'Helvetica-Bold' : 'Helvetica', align: o.align });
  }

  /** A small bold label followed by its value, on one line of a party box. */
  private pair(label: string, value: string | null | undefined, x: number, y: number, w: number) {
    this.line(label, x, y + 1.2, w, { font: 'Helvetica-Bold', size: LABEL });
    const lw = this.width(printableText(label), 'Helvetica-Bold', LABEL) + 3;
    this.line(value, x + lw, y, w - lw - 2, { size: 7 });
  }

  /** A grey title band across a section. */
  private band(title: string, x: number, y: number, w: number) {
    this.doc.save().rect(x, y, w, BAND_H).fillColor('#e4e4e4').fill().restore();
    this.box(x, y, w, BAND_H);
    this.doc.fillColor('black');
    this.line(title, x + 2, y + 1.8, w - 4, { font: 'Helvetica-Bold', size: 6, align: 'center' });
  }

  // ---- sections ----------------------------------------------------------------------------------------------

  /** The strip above everything: the sandbox and cancellation notices, in red. */
  private strip() {
    const notes = [
      this.sandbox ? 'AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL' : null,
      this.options.cancelado ? 'CT-E CANCELADO' : null,
    ].filter((n): n is string => n !== null);
    if (notes.length === 0) return;
    this.doc.fillColor('#c00000');
    this.line(notes.join('   -   '), X0, TOP, CW, { font: 'Helvetica-Bold', size: 7.5, align: 'center' });
    this.doc.fillColor('black');
  }

  /** Large diagonal markings across the sheet, under a light opacity so that the content stays readable. */
  private watermarks() {
    const marks: { text: string; size: number; cy: number }[] = [];
    if (this.options.cancelado) marks.push({ text: 'CANCELADO', size: 80, cy: this.sandbox ? 330 : 430 });
    if (this.sandbox) marks.push({ text: 'SEM VALOR FISCAL', size: 54, cy: this.options.cancelado ? 560 : 430 });
    for (const m of marks) {
      const w = this.width(m.text, 'Helvetica-Bold', m.size);
      this.doc.save();
      this.doc.translate(PAGE_W / 2, m.cy).rotate(-40);
      this.doc.fillColor('#c00000').fillOpacity(0.16).font('Helvetica-Bold').fontSize(m.size).text(m.text, -w / 2, -m.size / 2, { lineBreak: false });
      this.doc.restore();
    }
    this.doc.fillColor('black').fillOpacity(1);
  }

  private receipt(y: number): number {
    const c = this.cte;
    this.box(X0, y, CW, BAND_H);
    this.line(
      'DECLARO QUE RECEBI OS VOLUMES DESTE CONHECIMENTO EM PERFEITO ESTADO PELO QUE DOU POR CUMPRIDO O PRESENTE CONTRATO DE TRANSPORTE',
      X0 + 2, y + 2, CW - 4, { size: 5.5, align: 'center' },
    );
    const r = y + BAND_H;
    const h = 17;
    this.field(X0, r, 150, h, 'NOME', '');
    this.field(X0, r + h, 150, h, 'RG', '');
    this.field(X0 + 150, r, 160, 2 * h, 'ASSINATURA / CARIMBO', '');
    this.field(X0 + 310, r, 150, h, 'TÉRMINO DA PRESTAÇÃO - DATA/HORA', '');
    this.field(X0 + 310, r + h, 150, h, 'INÍCIO DA PRESTAÇÃO - DATA/HORA', '');
    const x = X0 + 460;
    const w = CW - 460;
    this.box(x, r, w, 2 * h);
    this.line('CT-E', x, r + 3, w, { font: 'Helvetica-Bold', size: 8, align: 'center' });
    this.line(`Nº DOCUMENTO ${c.numero}`, x, r + 14, w, { size: 6.5, align: 'center' });
    this.line(`SÉRIE ${c.serie}`, x, r + 23, w, { size: 6.5, align: 'center' });
    const cut = r + 2 * h + 3.5;
    this.doc.save().lineWidth(0.5).dash(3, { space: 2 }).moveTo(X0, cut).lineTo(X0 + CW, cut).stroke().undash().restore();
    return r + 2 * h + 7;
  }

  private issuerBox(x: number, y: number, w: number, h: number) {
    const e = this.cte.emitente;
    this.box(x, y, w, h);
    const name = this.wrapAtMost(e.nome ?? '', w - 8, 'Helvetica-Bold', 8.5, 2);
    let ly = y + 5;
    for (const l of name) {
      this.line(l, x + 4, ly, w - 8, { font: 'Helvetica-Bold', size: 8.5, align: 'center' });
      ly += 10;
    }
    ly += 2;
    const a = e.endereco;
    const lines = [
      a ? [a.logradouro, a.numero, a.complemento].filter(Boolean).join(', ') : '',
      a ? [a.bairro, a.cep ? `CEP ${cep(a.cep)}` : null].filter(Boolean).join(' - ') : '',
      a ? [a.municipio, a.uf].filter(Boolean).join(' - ') + (e.telefone ? `   FONE ${phone(e.telefone)}` : '') : '',
      `CNPJ/CPF: ${document(e.documento)}   IE: ${e.ie ?? ''}`,
    ];
    for (const l of lines) {
      this.line(l, x + 4, ly, w - 8, { size: 6.5, align: 'center' });
      ly += 8.5;
    }
  }

  private header(y: number): number {
    const c = this.cte;
    const h = 80;
    this.issuerBox(X0, y, 205, h);

    const dx = X0 + 205;
    this.box(dx, y, 95, h);
    this.line('DACTE', dx, y + 6, 95, { font: 'Helvetica-Bold', size: 14, align: 'center' });
    this.line('Documento Auxiliar do', dx, y + 24, 95, { size: 5.8, align: 'center' });
    this.line('Conhecimento de Transporte', dx, y + 31, 95, { size: 5.8, align: 'center' });
    this.line('Eletrônico', dx, y + 38, 95, { size: 5.8, align: 'center' });
    this.doc.lineWidth(0.5).moveTo(dx, y + 50).lineTo(dx + 95, y + 50).stroke();
    this.label('MODAL', dx, y + 51, 95, 'center');
    this.line(MODAL[c.modal] ?? c.modal, dx, y + 63, 95, { font: 'Helvetica-Bold', size: 8, align: 'center' });

    const bx = X0 + 300;
    const bw = 196;
    this.box(bx, y, bw, h);
    this.label('CONTROLE DO FISCO', bx, y, bw);
    this.doc.image(this.barcode, bx + 6, y + 9, { width: bw - 12, height: 34 });
    this.label('CHAVE DE ACESSO', bx, y + 45, bw);
    this.line(groupedKey(c.chave), bx + 2, y + 54, bw - 4, { font: 'Helvetica-Bold', size: 7, align: 'center' });
    this.line('Consulta de autenticidade no portal nacional do CT-e,', bx + 2, y + 64, bw - 4, { size: 5, align: 'center' });
    this.line('no site da Sefaz autorizadora ou em http://www.cte.fazenda.gov.br/portal', bx + 2, y + 70.5, bw - 4, { size: 5, align: 'center' });

    const qx = bx + bw;
    const qw = X0 + CW - qx;
    this.box(qx, y, qw, h);
    if (this.qr) this.doc.image(this.qr, qx + (qw - 66) / 2, y + 7, { width: 66, height: 66 });
    else this.line('QR CODE INDISPONÍVEL', qx, y + 36, qw, { size: 5, align: 'center' });

    let r = y + h;
    const rh = 22;
    this.field(X0, r, 38, rh, 'MODELO', c.modelo, { align: 'center' });
    this.field(X0 + 38, r, 38, rh, 'SÉRIE', String(c.serie), { align: 'center' });
    this.field(X0 + 76, r, 66, rh, 'NÚMERO', String(c.numero), { align: 'center', bold: true });
    this.sheetNumber(X0 + 142, r, 38, rh);
    this.field(X0 + 180, r, 120, rh, 'DATA E HORA DE EMISSÃO', dateTime(c.data_emissao), { align: 'center' });
    this.field(bx, r, CW - 300, rh, 'PROTOCOLO DE AUTORIZAÇÃO DE USO',
      c.protocolo ? `${c.protocolo.numero} - ${dateTime(c.protocolo.recebido_em)}` : '', { bold: true, align: 'center' });
    r += rh;
    this.field(X0, r, 90, rh, 'TIPO DO CT-E', TIPO_CTE[c.tipo_cte] ?? String(c.tipo_cte));
    this.field(X0 + 90, r, 110, rh, 'TIPO DO SERVIÇO', TIPO_SERVICO[c.tipo_servico] ?? String(c.tipo_servico));
    this.field(X0 + 200, r, 100, rh, 'TOMADOR DO SERVIÇO', TOMADOR[c.tomador.papel] ?? c.tomador.papel);
    const te = c.tipo_emissao ?? Number(c.chave[34]);
    this.field(bx, r, 135, rh, 'FORMA DE EMISSÃO', FORMA_EMISSAO[te] ?? String(te));
    this.field(bx + 135, r, CW - 435, rh, 'AMBIENTE', c.ambiente === 'producao' ? 'PRODUÇÃO' : 'HOMOLOGAÇÃO');
    r += rh;
    this.field(X0, r, CW, rh, 'CFOP - NATUREZA DA PRESTAÇÃO', `${c.cfop} - ${c.natureza_operacao}`);
    r += rh;
    this.field(X0, r, CW / 2, rh, 'INÍCIO DA PRESTAÇÃO', `${c.inicio.municipio} - ${c.inicio.uf}`);
    this.field(X0 + CW / 2, r, CW / 2, rh, 'TÉRMINO DA PRESTAÇÃO', `${c.fim.municipio} - ${c.fim.uf}`);
    return r + rh;
  }

  private party(title: string, p: ParteLida | null, x: number, y: number, w: number, h: number) {
    this.box(x, y, w, h);
    this.label(title, x, y, w);
    if (!p) return;
    const a = p.endereco;
    const ix = x + 2;
    const iw = w - 4;
    let ly = y + 9;
    this.pair('NOME', p.nome, ix, ly, iw);
    ly += 9;
    this.pair('ENDEREÇO', a ? [[a.logradouro, a.numero, a.complemento].filter(Boolean).join(', '), a.bairro].filter(Boolean).join(' - ') : '', ix, ly, iw);
    ly += 9;
    this.pair('MUNICÍPIO', a?.municipio, ix, ly, iw * 0.64);
    this.pair('CEP', cep(a?.cep), ix + iw * 0.64, ly, iw * 0.36);
    ly += 9;
    this.pair('CNPJ/CPF', document(p.documento), ix, ly, iw * 0.55);
    this.pair('IE', p.ie, ix + iw * 0.55, ly, iw * 0.45);
    ly += 9;
    this.pair('UF', a?.uf, ix, ly, iw * 0.18);
    this.pair('PAÍS', a?.pais, ix + iw * 0.18, ly, iw * 0.4);
    this.pair('FONE', phone(p.telefone), ix + iw * 0.58, ly, iw * 0.42);
  }

  private taker(y: number): number {
    const p = this.cte.tomador.parte;
    const h = 36;
    this.box(X0, y, CW, h);
    this.label('TOMADOR DO SERVIÇO', X0, y, CW);
    if (!p) return y + h;
    const a = p.endereco;
    const ix = X0 + 2;
    const iw = CW - 4;
    let ly = y + 9;
    this.pair('NOME', p.nome, ix, ly, iw * 0.52);
    this.pair('MUNICÍPIO', a?.municipio, ix + iw * 0.52, ly, iw * 0.26);
    this.pair('UF', a?.uf, ix + iw * 0.78, ly, iw * 0.07);
    this.pair('CEP', cep(a?.cep), ix + iw * 0.85, ly, iw * 0.15);
    ly += 9;
    this.pair('ENDEREÇO', a ? [[a.logradouro, a.numero, a.complemento].filter(Boolean).join(', '), a.bairro].filter(Boolean).join(' - ') : '', ix, ly, iw * 0.78);
    this.pair('PAÍS', a?.pais, ix + iw * 0.78, ly, iw * 0.22);
    ly += 9;
    this.pair('CNPJ/CPF', document(p.documento), ix, ly, iw * 0.35);
    this.pair('IE', p.ie, ix + iw * 0.35, ly, iw * 0.3);
    this.pair('FONE', phone(p.telefone), ix + iw * 0.65, ly, iw * 0.35);
    return y + h;
  }

  private parties(y: number): number {
    const c = this.cte;
    const half = CW / 2;
    const h = 54;
    this.party('REMETENTE', c.remetente, X0, y, half, h);
    this.party('DESTINATÁRIO', c.destinatario, X0 + half, y, half, h);
    this.party('EXPEDIDOR', c.expedidor, X0, y + h, half, h);
    this.party('RECEBEDOR', c.recebedor, X0 + half, y + h, half, h);
    return this.taker(y + 2 * h);
  }

  /** The "FL" box; its value is written once the number of sheets is known (`fillSheetNumbers`). */
  private sheetNumber(x: number, y: number, w: number, h: number) {
    this.field(x, y, w, h, 'FL', '');
    this.sheetSlots.push({ page: this.page, x, y, w, h });
  }

  private readonly sheetSlots: { page: number; x: number; y: number; w: number; h: number }[] = [];

  private static readonly QTY_SLOTS = 6;

  private cargo(y: number): number {
    const carga = this.cte.carga ?? null;
    const rh = 22;
    this.field(X0, y, 230, rh, 'PRODUTO PREDOMINANTE', carga?.produto_predominante);
    this.field(X0 + 230, y, 201, rh, 'OUTRAS CARACTERÍSTICAS DA CARGA', carga?.outras_caracteristicas);
    this.field(X0 + 431, y, CW - 431, rh, 'VALOR TOTAL DA CARGA', money(carga?.valor_centavos), { bold: true, align: 'right' });
    const q = (carga?.quantidades ?? []).slice(0, DacteWriter.QTY_SLOTS);
    const slots = Math.max(4, q.length);
    const sw = CW / slots;
    for (let i = 0; i < slots; i++) {
      const item = q[i];
      const label = item ? `${item.tipo_medida ?? 'QUANTIDADE'} / ${(item.unidade && UNIDADE[item.unidade]) ?? item.unidade ?? ''}` : 'TP MED. / UN.';
      this.field(X0 + i * sw, y + rh, sw, rh, label.toUpperCase(), item ? decimal(item.quantidade) : '', { align: 'right' });
    }
    return y + 2 * rh;
  }

  private static readonly COMP_COLS = 3;
  private static readonly COMP_MAX_ROWS = 8;

  private components(y: number): number {
    const c = this.cte;
    this.band('COMPONENTES DO VALOR DA PRESTAÇÃO DO SERVIÇO', X0, y, CW);
    const top = y + BAND_H;
    const shown = c.componentes.slice(0, DacteWriter.COMP_COLS * DacteWriter.COMP_MAX_ROWS);
    const rows = Math.min(DacteWriter.COMP_MAX_ROWS, Math.max(3, Math.ceil(shown.length / DacteWriter.COMP_COLS)));
    const h = 8 + rows * ROW_H + 2;
    const gridW = 431;
    const colW = gridW / DacteWriter.COMP_COLS;
    this.box(X0, top, gridW, h);
    for (let col = 0; col < DacteWriter.COMP_COLS; col++) {
      const cx = X0 + col * colW;
      if (col > 0) this.doc.lineWidth(0.5).moveTo(cx, top).lineTo(cx, top + h).stroke();
      this.line('NOME', cx + 2, top + 1.5, colW * 0.6, { font: 'Helvetica-Bold', size: LABEL });
      this.line('VALOR', cx + colW * 0.6, top + 1.5, colW * 0.4 - 3, { font: 'Helvetica-Bold', size: LABEL, align: 'right' });
    }
    shown.forEach((comp, i) => {
      const cx = X0 + (i % DacteWriter.COMP_COLS) * colW;
      const ry = top + 8 + Math.floor(i / DacteWriter.COMP_COLS) * ROW_H;
      this.line(comp.nome, cx + 2, ry, colW * 0.62 - 2, { size: 6.5 });
      this.line(money(comp.valor_centavos), cx + colW * 0.62, ry, colW * 0.38 - 3, { size: 6.5, align: 'right' });
    });
    this.field(X0 + gridW, top, CW - gridW, h / 2, 'VALOR TOTAL DO SERVIÇO', money(c.valor_prestacao_centavos), { bold: true, size: 9, align: 'right' });
    this.field(X0 + gridW, top + h / 2, CW - gridW, h / 2, 'VALOR A RECEBER', money(c.valor_receber_centavos), { bold: true, size: 9, align: 'right' });
    return top + h;
  }

  private taxes(y: number): number {
    const i = this.cte.icms;
    this.band('INFORMAÇÕES RELATIVAS AO IMPOSTO', X0, y, CW);
    const r = y + BAND_H;
    const rh = 22;
    this.field(X0, r, 211, rh, 'SITUAÇÃO TRIBUTÁRIA', icmsSituacao(i));
    this.field(X0 + 211, r, 80, rh, 'BASE DE CÁLCULO', money(i?.base_centavos), { align: 'right' });
    this.field(X0 + 291, r, 60, rh, 'ALÍQ. ICMS', i?.aliquota ? decimal(i.aliquota) : '', { align: 'right' });
    this.field(X0 + 351, r, 80, rh, 'VALOR ICMS', money(i?.valor_centavos), { align: 'right' });
    this.field(X0 + 431, r, 70, rh, '% RED. BC. CALC.', i?.reducao_base ? decimal(i.reducao_base) : '', { align: 'right' });
    this.field(X0 + 501, r, CW - 501, rh, 'ICMS ST', '', { align: 'right' });
    return r + rh;
  }

  /** The documents grid: two halves, each with type, issuer and number or key; `rows` lines tall. */
  private docsGrid(title: string, docs: DocRow[], y: number, rows: number, height?: number): number {
    this.band(title, X0, y, CW);
    const top = y + BAND_H;
    const h = height !== undefined ? height - BAND_H : 8 + rows * ROW_H + 2;
    const half = CW / 2;
    this.box(X0, top, CW, h);
    this.doc.lineWidth(0.5).moveTo(X0 + half, top).lineTo(X0 + half, top + h).stroke();
    const cols = [34, 74];
    for (let side = 0; side < 2; side++) {
      const hx = X0 + side * half;
      this.line('TIPO DOC', hx + 2, top + 1.5, cols[0]! - 2, { font: 'Helvetica-Bold', size: LABEL });
      this.line('CNPJ/CPF EMITENTE', hx + cols[0]!, top + 1.5, cols[1]! - 2, { font: 'Helvetica-Bold', size: LABEL });
      this.line('SÉRIE/NRO. DOCUMENTO OU CHAVE DE ACESSO', hx + cols[0]! + cols[1]!, top + 1.5, half - cols[0]! - cols[1]! - 2, { font: 'Helvetica-Bold', size: LABEL });
    }
    docs.forEach((d, i) => {
      const hx = X0 + (i % 2) * half;
      const ry = top + 8 + Math.floor(i / 2) * ROW_H;
      this.line(d.tipo, hx + 2, ry, cols[0]! - 3, { size: 6.3 });
      this.line(d.emitente, hx + cols[0]!, ry, cols[1]! - 3, { size: 6.3 });
      this.line(d.documento, hx + cols[0]! + cols[1]!, ry, half - cols[0]! - cols[1]! - 3, { size: 6.3 });
    });
    return top + h;
  }

  private textBox(title: string, lines: string[], y: number, rows: number): number {
    this.band(title, X0, y, CW);
    const top = y + BAND_H;
    const h = rows * 7.6 + 4;
    this.box(X0, top, CW, h);
    lines.forEach((l, i) => this.line(l, X0 + 3, top + 2.5 + i * 7.6, CW - 6, { size: 6.5 }));
    return top + h;
  }

  private modal(y: number): number {
    const c = this.cte;
    const rodoviario = c.modal === '01';
    this.band(`DADOS ESPECÍFICOS DO MODAL ${MODAL[c.modal] ?? c.modal}`, X0, y, CW);
    const r = y + BAND_H;
    const rh = 20;
    if (rodoviario) {
      this.field(X0, r, 120, rh, 'RNTRC DA EMPRESA', c.rntrc ?? '', { bold: true });
      this.box(X0 + 120, r, CW - 120, rh);
      this.line('ESTE CONHECIMENTO DE TRANSPORTE ATENDE À LEGISLAÇÃO DE TRANSPORTE RODOVIÁRIO EM VIGOR', X0 + 122, r + 7, CW - 124, { font: 'Helvetica-Bold', size: 6.5, align: 'center' });
    } else {
      this.field(X0, r, CW, rh, 'INFORMAÇÕES DO MODAL', 'CONFORME O XML DO CT-E');
    }
    return r + rh;
  }

  private reserved(y: number, h: number) {
    this.field(X0, y, 340, h, 'USO EXCLUSIVO DO EMISSOR DO CT-E', '');
    this.field(X0 + 340, y, CW - 340, h, 'RESERVADO AO FISCO', '');
  }

  /** The compact header of a continuation sheet. */
  private continuationHeader(y: number): number {
    const c = this.cte;
    const h = 22;
    this.box(X0, y, 230, 2 * h);
    const name = this.wrapAtMost(c.emitente.nome ?? '', 222, 'Helvetica-Bold', 8, 2);
    name.forEach((l, i) => this.line(l, X0 + 4, y + 6 + i * 9.5, 222, { font: 'Helvetica-Bold', size: 8, align: 'center' }));
    this.line(`CNPJ/CPF: ${document(c.emitente.documento)}`, X0 + 4, y + 31, 222, { size: 6.5, align: 'center' });
    this.box(X0 + 230, y, 90, 2 * h);
    this.line('DACTE', X0 + 230, y + 8, 90, { font: 'Helvetica-Bold', size: 13, align: 'center' });
    this.line('CONTINUAÇÃO', X0 + 230, y + 26, 90, { font: 'Helvetica-Bold', size: 7, align: 'center' });
    const x = X0 + 320;
    this.field(x, y, 40, h, 'MODELO', c.modelo, { align: 'center' });
    this.field(x + 40, y, 40, h, 'SÉRIE', String(c.serie), { align: 'center' });
    this.field(x + 80, y, 70, h, 'NÚMERO', String(c.numero), { align: 'center', bold: true });
    this.sheetNumber(x + 150, y, 40, h);
    this.field(x + 190, y, CW - 510, h, 'EMISSÃO', dateTime(c.data_emissao), { align: 'center' });
    this.field(x, y + h, CW - 320, h, 'CHAVE DE ACESSO', groupedKey(c.chave), { bold: true, align: 'center' });
    return y + 2 * h;
  }

  // ---- pagination ---------------------------------------------------------------------------------------------

  private static blockHeight(b: Continuation, rows: number): number {
    return b.kind === 'docs' ? BAND_H + 8 + Math.ceil(rows / 2) * ROW_H + 2 : BAND_H + rows * 7.6 + 4;
  }

  /** Lays the continuation blocks on sheets from `top` to BOTTOM, splitting a block across sheets when needed. */
  private static paginate(blocks: Continuation[], top: number): Placed[][] {
    const pages: Placed[][] = [];
    let current: Placed[] = [];
    let y = top;
    for (const block of blocks) {
      const total = block.kind === 'docs' ? block.rows.length : block.lines.length;
      const perRow = block.kind === 'docs' ? 2 : 1;
      let from = 0;
      while (from < total) {
        const free = BOTTOM - y - DacteWriter.blockHeight(block, 0);
        const lineH = block.kind === 'docs' ? ROW_H : 7.6;
        const fit = Math.floor(free / lineH) * perRow;
        if (fit < perRow) {
          pages.push(current);
          current = [];
          y = top;
          continue;
        }
        const to = Math.min(total, from + fit);
        current.push({ block, from, to, y });
        y += DacteWriter.blockHeight(block, to - from) + GAP;
        from = to;
      }
    }
    if (current.length > 0) pages.push(current);
    return pages;
  }

  // ---- the document -------------------------------------------------------------------------------------------

  draw() {
    const c = this.cte;
    const doc = this.doc;

    // Sheet 1, top to bottom; the documents take the room left between the taxes and the observations.
    doc.addPage({ size: 'A4', margin: 0 });
    this.page = 1;
    this.strip();
    let y = this.receipt(TOP + 10);
    y = this.header(y) + GAP;
    y = this.parties(y) + GAP;
    y = this.cargo(y) + GAP;
    y = this.components(y) + GAP;
    const docsTop = this.taxes(y) + GAP;

    const reservedH = 26;
    const modalH = BAND_H + 20;
    const obsRows = 5;
    const obsH = BAND_H + obsRows * 7.6 + 4;
    const obsTop = BOTTOM - reservedH - GAP - modalH - GAP - obsH;
    const docRowsFit = Math.max(1, Math.floor((obsTop - GAP - docsTop - BAND_H - 8 - 2) / ROW_H));

    const docs = documentRows(c);
    const obsLines = observationText(c).flatMap((p) => this.wrap(p, CW - 6, 'Helvetica', 6.5));
    const shownComponents = DacteWriter.COMP_COLS * DacteWriter.COMP_MAX_ROWS;
    const extraComponents = c.componentes.slice(shownComponents).map((k) => printableText(`${k.nome}: ${money(k.valor_centavos)}`));
    const extraQuantities = (c.carga?.quantidades ?? []).slice(DacteWriter.QTY_SLOTS)
      .map((q) => printableText(`${q.tipo_medida ?? 'QUANTIDADE'} / ${(q.unidade && UNIDADE[q.unidade]) ?? q.unidade ?? ''}: ${decimal(q.quantidade)}`));

    const docsFirst = docs.slice(0, docRowsFit * 2);
    const obsFirst = obsLines.length > obsRows ? obsLines.slice(0, obsRows - 1) : obsLines;
    const blocks: Continuation[] = [];
    if (docsFirst.length < docs.length) blocks.push({ kind: 'docs', title: 'DOCUMENTOS ORIGINÁRIOS (CONTINUAÇÃO)', rows: docs.slice(docsFirst.length) });
    if (extraComponents.length > 0) blocks.push({ kind: 'text', title: 'COMPONENTES DO VALOR DA PRESTAÇÃO DO SERVIÇO (CONTINUAÇÃO)', lines: extraComponents });
    if (extraQuantities.length > 0) blocks.push({ kind: 'text', title: 'QUANTIDADES DA CARGA (CONTINUAÇÃO)', lines: extraQuantities });
    if (obsFirst.length < obsLines.length) blocks.push({ kind: 'text', title: 'OBSERVAÇÕES (CONTINUAÇÃO)', lines: obsLines.slice(obsFirst.length) });
    const continuation = DacteWriter.paginate(blocks, TOP + 10 + 44 + GAP);
    const pages = 1 + continuation.length;

    this.docsGrid(`DOCUMENTOS ORIGINÁRIOS${docsFirst.length < docs.length ? ' (CONTINUA NA FOLHA 2)' : ''}`, docsFirst, docsTop, docRowsFit, obsTop - GAP - docsTop);
    const obsShown = obsFirst.length < obsLines.length ? [...obsFirst, '(continua na folha 2)'] : obsFirst;
    y = this.textBox('OBSERVAÇÕES', obsShown, obsTop, obsRows) + GAP;
    y = this.modal(y) + GAP;
    this.reserved(y, reservedH);
    this.watermarks();

    for (const placed of continuation) {
      doc.addPage({ size: 'A4', margin: 0 });
      this.page++;
      this.strip();
      this.continuationHeader(TOP + 10);
      for (const p of placed) {
        if (p.block.kind === 'docs') this.docsGrid(p.block.title, p.block.rows.slice(p.from, p.to), p.y, Math.ceil((p.to - p.from) / 2));
        else this.textBox(p.block.title, p.block.lines.slice(p.from, p.to), p.y, p.to - p.from);
      }
      this.watermarks();
    }

    // "FL n/N" on every sheet, now that N is known (the document buffers its pages).
    for (const slot of this.sheetSlots) {
      doc.switchToPage(slot.page - 1);
      this.line(`${slot.page}/${pages}`, slot.x + 2, slot.y + slot.h - VALUE * 1.2 - 1.5, slot.w - 4, { align: 'center' });
    }
  }
}

/** The DACTE of a CT-e as a PDF. */
export async function renderDacte(cte: CteLido, options: DacteOptions): Promise<Buffer> {
  const qrText = qrCodeText(cte);
  const [barcode, qr] = await Promise.all([code128(cte.chave), qrText ? qrPng(qrText) : Promise.resolve(null)]);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    autoFirstPage: false,
    bufferPages: true,
    info: { Title: `DACTE ${cte.chave}`, Subject: `CT-e ${cte.serie}/${cte.numero}`, Creator: 'frete-fiscal', Producer: 'frete-fiscal' },
  });
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  new DacteWriter(doc, cte, options, barcode, qr).draw();
  doc.flushPages();
  doc.end();
  return done;
}
