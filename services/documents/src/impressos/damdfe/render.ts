import { type Environment } from '@frete/contracts';
import { MDFE } from '@frete/domain';
import { type Codigos, DocumentoAuxiliar, renderDocumentoAuxiliar } from '../documento-auxiliar';
import { dateTime, decimal, document, groupedKey } from '../format';
import {
  BAND_H,
  BOTTOM,
  COMPACT_HEADER_H,
  CONTENT_TOP,
  CW,
  GAP,
  ROW_H,
  TEXT_LINE_H,
  TEXT_SIZE,
  X0,
  gridFlow,
  paginate,
  type Placed,
  textFlow,
} from '../layout';

/**
 * The DAMDFE (Documento Auxiliar do MDF-e), portrait A4, laid out like the model of the MDF-e manual: issuer and the
 * QR code of `infMDFeSupl/qrCodMDFe`, the title, the Code-128 barcode of the access key, the identification (model,
 * series, number, sheet, issue, UFs of loading and unloading), the authorization protocol and the route; then the
 * road modal (totals, RNTRC, vehicles, drivers), the municipalities of loading and unloading, the linked CT-e and
 * the observations. What does not fit on the first sheet (keys, long lists of municipalities, observations) goes on
 * continuation sheets with a compact header, numbered in "FL n/N". Homologação carries "SEM VALOR FISCAL"; a
 * cancelled or closed MDF-e says so on every sheet.
 */
export interface DamdfeDados {
  chave: string;
  serie: number;
  numero: number;
  data_emissao: string;
  uf_inicio: string;
  uf_fim: string;
  percurso: string[];
  emitente: { nome: string; cnpj: string; ie: string | null; endereco: string };
  protocolo: { numero: string; recebido_em: string } | null;
  qr_code: string;
  rntrc: string | null;
  veiculos: { placa: string; uf: string; tipo: string; rntrc?: string | null }[];
  condutores: { cpf: string; nome: string }[];
  ctes: string[];
  carregamento: string[];
  descarregamento: string[];
  qtd_cte: number;
  valor_carga: string;
  peso_kg: string;
  observacoes: string | null;
}

export interface DamdfeOptions {
  environment: Environment;
  situacao?: 'cancelado' | 'encerrado' | null;
}

const MODELO = '58';
const SANDBOX_NOTICE = 'SEM VALOR FISCAL - EMITIDO EM AMBIENTE DE HOMOLOGAÇÃO';
const CONSULTA = 'Consulta em https://dfe-portal.svrs.rs.gov.br/MDFE/Consulta';

const HEADER_H = 80;
const QR_BOX_W = 100;
const TITLE_H = 16;
const BARCODE_H = 68;
const FIELD_H = 22;
/** The MDF-e allows one traction vehicle, three trailers and ten drivers: the tables never need more lines. */
const PEOPLE_MAX = 10;
const PEOPLE_MIN = 2;
const PLACE_SIZE = 7;
const PLACE_LINE_H = 8;
const PLACE_MAX_LINES = 3;
const OBS_ROWS = 5;
const KEY_SIDES = 2;

/** A run of content that continues on the continuation sheets. */
type Continuation = { kind: 'keys'; title: string; keys: string[] } | { kind: 'text'; title: string; lines: string[] };

const metrics = (b: Continuation) => (b.kind === 'keys' ? gridFlow(b.keys.length, KEY_SIDES) : textFlow(b.lines.length));

/** Where each part of the document goes, known before anything is drawn so that every sheet can print "FL n/N". */
interface Plan {
  peopleLines: number;
  loading: string[];
  unloading: string[];
  placeLines: number;
  keysTop: number;
  keysHeight: number;
  keysFirst: string[];
  obsTop: number;
  obsFirst: string[];
  continuation: Placed<Continuation>[][];
  /** The sheet where each continued block starts, for the "(continua na folha n)" notes. */
  continuesOn: Map<string, number>;
}

/** Draws one DAMDFE into a pdfkit document. */
class DamdfeWriter extends DocumentoAuxiliar {
  private readonly barcode: Buffer;
  private readonly qr: Buffer | null;
  /** Sheets in all, known once planned (`draw`), for the "FL n/N" of each. */
  private folhas = 1;

  constructor(
    doc: PDFKit.PDFDocument,
    private readonly d: DamdfeDados,
    options: DamdfeOptions,
    { barcode, qr }: Codigos,
  ) {
    super(doc, MDFE, options.environment === 'homologacao', options.situacao ? options.situacao.toUpperCase() : null);
    this.barcode = barcode;
    this.qr = qr;
  }

  // ---- plan ---------------------------------------------------------------------------------------------------

  private placeLines(places: string[]): string[] {
    return this.wrap(places.join(', '), CW / 2 - 6, 'Helvetica', PLACE_SIZE);
  }

  /** A list cut to `max` lines on sheet 1, its last line kept for the note that it continues. */
  private static firstPart(lines: string[], max: number): string[] {
    return lines.length > max ? lines.slice(0, max - 1) : lines;
  }

  /** Sheet 1's heights are those its sections draw; only the people tables and the municipalities vary. */
  private plan(): Plan {
    const d = this.d;
    let y = CONTENT_TOP + HEADER_H + GAP + TITLE_H + GAP + BARCODE_H + GAP + 2 * FIELD_H + GAP + BAND_H + FIELD_H + GAP;
    const peopleLines = Math.max(PEOPLE_MIN, Math.min(PEOPLE_MAX, Math.max(d.veiculos.length, d.condutores.length)));
    y += BAND_H + 8 + peopleLines * ROW_H + 2 + GAP;
    const loadingAll = this.placeLines(d.carregamento);
    const unloadingAll = this.placeLines(d.descarregamento);
    const placeLines = Math.max(1, Math.min(PLACE_MAX_LINES, Math.max(loadingAll.length, unloadingAll.length)));
    y += DamdfeWriter.placeBoxHeight(placeLines) + GAP;

    const obsHeight = BAND_H + OBS_ROWS * TEXT_LINE_H + 4;
    const obsTop = BOTTOM - obsHeight;
    const keysHeight = obsTop - GAP - y;
    const keyLines = Math.max(1, Math.floor((keysHeight - BAND_H - 8 - 2) / ROW_H));
    const keysFirst = d.ctes.slice(0, keyLines * KEY_SIDES);
    const obsAll = this.wrap(d.observacoes ?? '', CW - 6, 'Helvetica', TEXT_SIZE);

    const loading = DamdfeWriter.firstPart(loadingAll, PLACE_MAX_LINES);
    const unloading = DamdfeWriter.firstPart(unloadingAll, PLACE_MAX_LINES);
    const obsFirst = DamdfeWriter.firstPart(obsAll, OBS_ROWS);
    const blocks: Continuation[] = [];
    if (keysFirst.length < d.ctes.length)
      blocks.push({ kind: 'keys', title: 'DOCUMENTOS VINCULADOS (CONTINUAÇÃO)', keys: d.ctes.slice(keysFirst.length) });
    if (loading.length < loadingAll.length)
      blocks.push({ kind: 'text', title: 'MUNICÍPIOS DE CARREGAMENTO (CONTINUAÇÃO)', lines: loadingAll.slice(loading.length) });
    if (unloading.length < unloadingAll.length)
      blocks.push({ kind: 'text', title: 'MUNICÍPIOS DE DESCARREGAMENTO (CONTINUAÇÃO)', lines: unloadingAll.slice(unloading.length) });
    if (obsFirst.length < obsAll.length)
      blocks.push({ kind: 'text', title: 'OBSERVAÇÕES (CONTINUAÇÃO)', lines: obsAll.slice(obsFirst.length) });
    const continuation = paginate(blocks, metrics, CONTENT_TOP + COMPACT_HEADER_H + GAP);
    const continuesOn = new Map<string, number>();
    continuation.forEach((sheet, i) =>
      sheet.forEach((p) => {
        if (!continuesOn.has(p.block.title)) continuesOn.set(p.block.title, i + 2);
      }),
    );
    return { peopleLines, loading, unloading, placeLines, keysTop: y, keysHeight, keysFirst, obsTop, obsFirst, continuation, continuesOn };
  }

  private static placeBoxHeight(lines: number): number {
    return 9 + lines * PLACE_LINE_H + 3;
  }

  // ---- sections -----------------------------------------------------------------------------------------------

  protected marks() {
    this.avisos(SANDBOX_NOTICE);
  }

  private header(y: number): number {
    const e = this.d.emitente;
    const w = CW - QR_BOX_W;
    this.box(X0, y, w, HEADER_H);
    const iw = w - 12;
    const name = this.wrapAtMost(e.nome, iw, 'Helvetica-Bold', 10, 2);
    const address = this.wrapAtMost(e.endereco, iw, 'Helvetica', 7, 2);
    let ly = y + (HEADER_H - (name.length * 12 + 3 + 10 + address.length * 9)) / 2;
    for (const l of name) {
      this.line(l, X0 + 6, ly, iw, { font: 'Helvetica-Bold', size: 10 });
      ly += 12;
    }
    ly += 3;
    // Two placements rather than one string: printed text collapses runs of blanks.
    const cnpj = `CNPJ: ${document(e.cnpj)}`;
    this.line(cnpj, X0 + 6, ly, iw, { size: 7.5 });
    const ieX = this.width(cnpj, 'Helvetica', 7.5) + 16;
    this.line(`IE: ${e.ie ?? ''}`, X0 + 6 + ieX, ly, iw - ieX, { size: 7.5 });
    ly += 10;
    for (const l of address) {
      this.line(l, X0 + 6, ly, iw, { size: 7 });
      ly += 9;
    }

    const qx = X0 + w;
    this.box(qx, y, QR_BOX_W, HEADER_H);
    const side = HEADER_H - 10;
    if (this.qr) this.doc.image(this.qr, qx + (QR_BOX_W - side) / 2, y + 5, { width: side, height: side });
    else this.line('QR CODE INDISPONÍVEL', qx, y + HEADER_H / 2 - 3, QR_BOX_W, { size: 5, align: 'center' });
    return y + HEADER_H;
  }

  private title(y: number): number {
    this.band('DAMDFE - Documento Auxiliar de Manifesto Eletrônico de Documentos Fiscais', X0, y, CW, { h: TITLE_H, size: 9.5 });
    return y + TITLE_H;
  }

  private barcodeBox(y: number): number {
    const d = this.d;
    this.box(X0, y, CW, BARCODE_H);
    this.label('CONTROLE DO FISCO', X0, y, CW);
    const bw = 380;
    this.doc.image(this.barcode, X0 + (CW - bw) / 2, y + 9, { width: bw, height: 30 });
    this.label('CHAVE DE ACESSO', X0, y + 41, CW, 'center');
    this.line(groupedKey(d.chave), X0 + 2, y + 48.5, CW - 4, { font: 'Helvetica-Bold', size: 9, align: 'center' });
    this.line(CONSULTA, X0 + 2, y + 59.5, CW - 4, { size: 6, align: 'center' });
    return y + BARCODE_H;
  }

  private identification(y: number, sheet: string): number {
    const d = this.d;
    const h = FIELD_H;
    const center = { align: 'center' } as const;
    this.field(X0, y, 45, h, 'MODELO', MODELO, center);
    this.field(X0 + 45, y, 45, h, 'SÉRIE', String(d.serie), center);
    this.field(X0 + 90, y, 85, h, 'NÚMERO', String(d.numero), { align: 'center', bold: true });
    this.field(X0 + 175, y, 45, h, 'FL', sheet, center);
    this.field(X0 + 220, y, 131, h, 'DATA E HORA DE EMISSÃO', dateTime(d.data_emissao), center);
    this.field(X0 + 351, y, 110, h, 'UF CARREG.', d.uf_inicio, center);
    this.field(X0 + 461, y, CW - 461, h, 'UF DESCARREG.', d.uf_fim, center);
    const r = y + h;
    const p = d.protocolo;
    this.field(X0, r, 250, h, 'PROTOCOLO DE AUTORIZAÇÃO', p ? `${p.numero} - ${dateTime(p.recebido_em)}` : '', {
      align: 'center',
      bold: true,
    });
    this.field(X0 + 250, r, CW - 250, h, 'PERCURSO', d.percurso.join(' / '));
    return r + h;
  }

  private modal(y: number): number {
    const d = this.d;
    this.band('MODAL RODOVIÁRIO DE CARGA', X0, y, CW);
    const r = y + BAND_H;
    const h = FIELD_H;
    this.field(X0, r, 90, h, 'QTD. CT-E', String(d.qtd_cte), { align: 'center' });
    this.field(X0 + 90, r, 90, h, 'QTD. NF-E', '0', { align: 'center' });
    this.field(X0 + 180, r, 130, h, 'PESO TOTAL (KG)', decimal(d.peso_kg), { align: 'right' });
    this.field(X0 + 310, r, 130, h, 'VALOR TOTAL DA CARGA', d.valor_carga, { align: 'right', bold: true });
    this.field(X0 + 440, r, CW - 440, h, 'RNTRC DO EMITENTE', d.rntrc ?? '', { align: 'center', bold: true });
    return r + h;
  }

  private people(y: number, lines: number): number {
    const d = this.d;
    const half = CW / 2;
    this.grid({
      title: 'VEÍCULO',
      x: X0,
      y,
      w: half,
      lines,
      size: 7,
      columns: [{ label: 'PLACA', width: 70 }, { label: 'UF', width: 30 }, { label: 'RNTRC', width: 85 }, { label: 'TIPO' }],
      // A vehicle of the issuer's own fleet runs under the issuer's RNTRC: the XML names an owner only for a third party's.
      rows: d.veiculos.map((v) => [v.placa, v.uf, v.rntrc ?? d.rntrc ?? '', v.tipo]),
    });
    return this.grid({
      title: 'CONDUTOR',
      x: X0 + half,
      y,
      w: half,
      lines,
      size: 7,
      columns: [{ label: 'CPF', width: 85 }, { label: 'NOME' }],
      rows: d.condutores.map((c) => [document(c.cpf), c.nome]),
    });
  }

  private placeBox(label: string, lines: string[], x: number, y: number, w: number, h: number) {
    this.box(x, y, w, h);
    this.label(label, x, y, w);
    lines.forEach((l, i) => this.line(l, x + 3, y + 9 + i * PLACE_LINE_H, w - 6, { size: PLACE_SIZE }));
  }

  private places(y: number, plan: Plan): number {
    const half = CW / 2;
    const h = DamdfeWriter.placeBoxHeight(plan.placeLines);
    const loading = this.withNote(plan.loading, plan.continuesOn.get('MUNICÍPIOS DE CARREGAMENTO (CONTINUAÇÃO)'));
    const unloading = this.withNote(plan.unloading, plan.continuesOn.get('MUNICÍPIOS DE DESCARREGAMENTO (CONTINUAÇÃO)'));
    this.placeBox('MUNICÍPIOS DE CARREGAMENTO', loading, X0, y, half, h);
    this.placeBox('MUNICÍPIOS DE DESCARREGAMENTO', unloading, X0 + half, y, half, h);
    return y + h;
  }

  /** The lines shown on sheet 1, with a note of the sheet the rest is on. */
  private withNote(lines: string[], sheet: number | undefined): string[] {
    return sheet === undefined ? lines : [...lines, `(continua na folha ${sheet})`];
  }

  private keysGrid(title: string, keys: string[], y: number, lines: number, height?: number): number {
    return this.grid({
      title,
      x: X0,
      y,
      w: CW,
      lines,
      height,
      sides: KEY_SIDES,
      size: 7,
      columns: [{ label: 'TIPO', width: 32 }, { label: 'CHAVE DE ACESSO' }],
      rows: keys.map((k) => ['CT-E', groupedKey(k)]),
    });
  }

  protected continuationHeader(y: number, folha: number): number {
    const d = this.d;
    const sheet = `${folha}/${this.folhas}`;
    return this.compactHeader(y, {
      title: this.especie.impresso.nome,
      issuer: d.emitente.nome,
      issuerLine: `CNPJ: ${document(d.emitente.cnpj)}`,
      modelo: MODELO,
      serie: String(d.serie),
      numero: String(d.numero),
      emissao: dateTime(d.data_emissao),
      chave: d.chave,
      sheet: (x, sy, w, h) => this.field(x, sy, w, h, 'FL', sheet, { align: 'center' }),
    });
  }

  // ---- the document -------------------------------------------------------------------------------------------

  draw() {
    const plan = this.plan();
    const pages = 1 + plan.continuation.length;
    this.folhas = pages;

    this.doc.addPage({ size: 'A4', margin: 0 });
    this.marks();
    let y = this.header(CONTENT_TOP) + GAP;
    y = this.title(y) + GAP;
    y = this.barcodeBox(y) + GAP;
    y = this.identification(y, `1/${pages}`) + GAP;
    y = this.modal(y) + GAP;
    y = this.people(y, plan.peopleLines) + GAP;
    this.places(y, plan);
    const keysOn = plan.continuesOn.get('DOCUMENTOS VINCULADOS (CONTINUAÇÃO)');
    const keyLines = Math.ceil(plan.keysFirst.length / KEY_SIDES);
    this.keysGrid(
      `DOCUMENTOS VINCULADOS${keysOn ? ` (CONTINUA NA FOLHA ${keysOn})` : ''}`,
      plan.keysFirst,
      plan.keysTop,
      Math.max(1, keyLines),
      plan.keysHeight,
    );
    const obs = this.withNote(plan.obsFirst, plan.continuesOn.get('OBSERVAÇÕES (CONTINUAÇÃO)'));
    this.textBox('OBSERVAÇÕES', obs, plan.obsTop, OBS_ROWS);
    this.watermarks(this.status, this.sandbox);

    this.folhasDeContinuacao(plan.continuation, (p) => {
      if (p.block.kind === 'keys')
        this.keysGrid(p.block.title, p.block.keys.slice(p.from, p.to), p.y, Math.ceil((p.to - p.from) / KEY_SIDES));
      else this.textBox(p.block.title, p.block.lines.slice(p.from, p.to), p.y, p.to - p.from);
    });
  }
}

/** The DAMDFE of an MDF-e as a PDF. */
export function renderDamdfe(d: DamdfeDados, o: DamdfeOptions): Promise<Buffer> {
  return renderDocumentoAuxiliar(MDFE, d, d.qr_code || null, (doc, codigos) => new DamdfeWriter(doc, d, o, codigos).draw());
}
