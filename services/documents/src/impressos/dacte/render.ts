import { type CteLido, type Environment, type ParteLida } from '@frete/contracts';
import { CTE, qrCodeText } from '@frete/domain';
import {
  BAND_H,
  BOTTOM,
  COMPACT_HEADER_H,
  CONTENT_TOP,
  CW,
  GAP,
  LABEL,
  ROW_H,
  TEXT_LINE_H,
  TEXT_SIZE,
  VALUE,
  X0,
  gridFlow,
  paginate,
  textFlow,
} from '../layout';
import { type Codigos, DocumentoAuxiliar, renderDocumentoAuxiliar } from '../documento-auxiliar';
import { cep, dateTime, decimal, document, groupedKey, money, phone, printableText } from '../format';

/**
 * The DACTE (Documento Auxiliar do CT-e), portrait A4, laid out like the model of the CT-e manual: delivery receipt,
 * header (issuer, DACTE and modal, Code-128 barcode of the access key, QR code, model, series, number, sheet, issue
 * date, authorization protocol), type of CT-e and service, taker, CFOP, start and end of the service, the five
 * parties, cargo, components of the service value, ICMS, originating documents, observations, modal data and the
 * reserved boxes. Whatever does not fit on the first sheet (documents, observations, components, quantities) goes
 * on continuation sheets with a compact header, numbered in "FL n/N". A CT-e issued in contingency (tpEmis 5 FS-DA,
 * 7 SVC-RS, 8 SVC-SP) says so in the notices strip and, with dhCont and xJust, first in the observations. The
 * drawing primitives (boxes, bands, fitted text) are shared with the DAMDFE in `../pdf/layout`.
 */

export interface DacteOptions {
  /** The deployment's environment; a sandbox deployment, or a CT-e of tpAmb 2, gets the "SEM VALOR FISCAL" marking. */
  environment: Environment;
  /** The CT-e was cancelled: each sheet gets the "CANCELADO" marking. */
  cancelado?: boolean;
}

const TIPO_CTE: Record<number, string> = { 0: 'NORMAL', 1: 'COMPLEMENTO DE VALORES', 2: 'ANULAÇÃO', 3: 'SUBSTITUTO' };
const TIPO_SERVICO: Record<number, string> = {
  0: 'NORMAL',
  1: 'SUBCONTRATAÇÃO',
  2: 'REDESPACHO',
  3: 'REDESPACHO INTERMEDIÁRIO',
  4: 'SERVIÇO VINCULADO A MULTIMODAL',
};
const TOMADOR: Record<string, string> = {
  remetente: 'REMETENTE',
  expedidor: 'EXPEDIDOR',
  recebedor: 'RECEBEDOR',
  destinatario: 'DESTINATÁRIO',
  outros: 'OUTROS',
};
const MODAL: Record<string, string> = {
  '01': 'RODOVIÁRIO',
  '02': 'AÉREO',
  '03': 'AQUAVIÁRIO',
  '04': 'FERROVIÁRIO',
  '05': 'DUTOVIÁRIO',
  '06': 'MULTIMODAL',
};
/**
 * `tpEmis` as the schema names it (cteTiposBasico_v4.00.xsd, `ide/tpEmis`: "1 - Normal; 3 - Regime Especial NFF;
 * 4 - EPEC pela SVC; 5 - Contingência FSDA; 7 - Autorização pela SVC-RS; 8 - Autorização pela SVC-SP").
 */
const FORMA_EMISSAO: Record<number, string> = {
  1: 'NORMAL',
  3: 'REGIME ESPECIAL NFF',
  4: 'EPEC PELA SVC',
  5: 'CONTINGÊNCIA FSDA',
  7: 'AUTORIZAÇÃO PELA SVC-RS',
  8: 'AUTORIZAÇÃO PELA SVC-SP',
};
/**
 * What a DACTE issued in contingency says of it, by `tpEmis`. 5 (FS-DA): the expression the MOC CT-e 4.00 Visão Geral
 * §11.3.2 orders printed in the body of the form, "DACTE em Contingência - impresso em decorrência de problemas
 * técnicos". 7 and 8 (SVC): the manual orders no expression (§11.3.3: "Impressão do DACTE em papel comum", with the
 * SVC's protocol in field 2 as for a normal emission, Anexo II §2.19.1); the DACTE names the emission as the schema
 * does, "Autorização pela SVC-RS/SP", which §11.1 counts as contingency ("tpEmis … 4, 5, 7 ou 8 … Contingência").
 */
const AVISO_CONTINGENCIA: Record<number, string> = {
  5: 'DACTE EM CONTINGÊNCIA - IMPRESSO EM DECORRÊNCIA DE PROBLEMAS TÉCNICOS',
  7: 'EMISSÃO EM CONTINGÊNCIA - AUTORIZAÇÃO PELA SVC-RS',
  8: 'EMISSÃO EM CONTINGÊNCIA - AUTORIZAÇÃO PELA SVC-SP',
};
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

interface DocRow {
  tipo: string;
  emitente: string;
  documento: string;
}

/** A run of content that continues on the continuation sheets. */
type Continuation = { kind: 'docs'; title: string; rows: DocRow[] } | { kind: 'text'; title: string; lines: string[] };

/** A party's street, number, complement and district on one line: what its ENDEREÇO field prints. */
function enderecoEmLinha(a: ParteLida['endereco']): string {
  return a ? [[a.logradouro, a.numero, a.complemento].filter(Boolean).join(', '), a.bairro].filter(Boolean).join(' - ') : '';
}

function icmsSituacao(icms: CteLido['icms']): string {
  if (!icms) return '';
  if (icms.grupo === 'ICMSSN') return 'SIMPLES NACIONAL';
  if (icms.grupo === 'ICMSOutraUF') return '90 - ICMS DEVIDO À UF DE ORIGEM DA PRESTAÇÃO (OUTRA UF)';
  return (icms.cst ? CST[icms.cst] : undefined) ?? icms.cst ?? icms.grupo;
}

/** The originating documents as the DACTE lists them: NF-e by key (issuer's CNPJ read from it), then the rest. */
function documentRows(cte: CteLido): DocRow[] {
  const byKey =
    (tipo: string) =>
    (key: string): DocRow => ({ tipo, emitente: document(key.slice(6, 20)), documento: key });
  return [
    ...cte.nfe_chaves.map(byKey('NF-E')),
    ...(cte.outros_documentos ?? []).map((d) => ({
      tipo: d.tipo === 'nf' ? `NF ${d.modelo ?? ''}`.trim() : d.descricao ? `OUTROS` : `OUTROS ${d.modelo ?? ''}`.trim(),
      emitente: d.tipo === 'nf' ? document(cte.remetente?.documento) : '',
      documento: [d.descricao, [d.serie, d.numero].filter(Boolean).join('/'), d.emissao ? dateTime(d.emissao) : null]
        .filter(Boolean)
        .join(' - '),
    })),
    ...cte.cte_anteriores.map(byKey('CT-E ANT.')),
  ];
}

/** `ide/tpEmis`, or the key's 35th digit for a CT-e read before tpEmis was. */
const tipoEmissao = (cte: CteLido): number => cte.tipo_emissao ?? Number(cte.chave[34]);

/**
 * A CT-e authorized by a contingency authorizer says so where the reader looks first, with when and why the issuer
 * entered contingency (`dhCont`, `xJust`): the DACTE is what travels with the cargo and what the road inspection reads.
 */
function contingencyText(cte: CteLido): string | null {
  const aviso = AVISO_CONTINGENCIA[tipoEmissao(cte)];
  if (!aviso) return null;
  const c = cte.contingencia;
  return printableText(
    [
      aviso,
      c?.dh_cont ? `ENTRADA EM CONTINGÊNCIA: ${dateTime(c.dh_cont)}` : null,
      c?.justificativa ? `JUSTIFICATIVA: ${c.justificativa}` : null,
    ]
      .filter(Boolean)
      .join(' - '),
  );
}

function observationText(cte: CteLido): string[] {
  const parts = [contingencyText(cte) ?? '', printableText(cte.observacoes)];
  for (const c of cte.campos_observacao ?? []) {
    parts.push(printableText(`${c.destino === 'fisco' ? 'FISCO - ' : ''}${c.campo ?? ''}: ${c.texto ?? ''}`));
  }
  return parts.filter((p) => p.length > 0);
}

/** Draws one DACTE into a pdfkit document. */
class DacteWriter extends DocumentoAuxiliar {
  private page = 0;

  private readonly barcode: Buffer;
  private readonly qr: Buffer | null;

  constructor(
    doc: PDFKit.PDFDocument,
    private readonly cte: CteLido,
    options: DacteOptions,
    { barcode, qr }: Codigos,
  ) {
    super(doc, CTE, options.environment === 'homologacao' || cte.ambiente === 'homologacao', options.cancelado ? 'CANCELADO' : null);
    this.barcode = barcode;
    this.qr = qr;
  }

  // ---- sections ----------------------------------------------------------------------------------------------

  protected marks() {
    // MOC CT-e 4.00 Anexo II §2.20: "EMITIDO EM AMBIENTE DE HOMOLOGAÇÃO – SEM VALOR FISCAL" (dash as a hyphen).
    this.avisos('EMITIDO EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL', AVISO_CONTINGENCIA[tipoEmissao(this.cte)]);
  }

  private receipt(y: number): number {
    const c = this.cte;
    this.box(X0, y, CW, BAND_H);
    this.line(
      'DECLARO QUE RECEBI OS VOLUMES DESTE CONHECIMENTO EM PERFEITO ESTADO PELO QUE DOU POR CUMPRIDO O PRESENTE CONTRATO DE TRANSPORTE',
      X0 + 2,
      y + 2,
      CW - 4,
      { size: 5.5, align: 'center' },
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
    this.doc
      .save()
      .lineWidth(0.5)
      .dash(3, { space: 2 })
      .moveTo(X0, cut)
      .lineTo(X0 + CW, cut)
      .stroke()
      .undash()
      .restore();
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
    this.doc
      .lineWidth(0.5)
      .moveTo(dx, y + 50)
      .lineTo(dx + 95, y + 50)
      .stroke();
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
    this.line('no site da Sefaz autorizadora ou em http://www.cte.fazenda.gov.br/portal', bx + 2, y + 70.5, bw - 4, {
      size: 5,
      align: 'center',
    });

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
    this.field(
      bx,
      r,
      CW - 300,
      rh,
      'PROTOCOLO DE AUTORIZAÇÃO DE USO',
      c.protocolo ? `${c.protocolo.numero} - ${dateTime(c.protocolo.recebido_em)}` : '',
      { bold: true, align: 'center' },
    );
    r += rh;
    this.field(X0, r, 90, rh, 'TIPO DO CT-E', TIPO_CTE[c.tipo_cte] ?? String(c.tipo_cte));
    this.field(X0 + 90, r, 110, rh, 'TIPO DO SERVIÇO', TIPO_SERVICO[c.tipo_servico] ?? String(c.tipo_servico));
    this.field(X0 + 200, r, 100, rh, 'TOMADOR DO SERVIÇO', TOMADOR[c.tomador.papel] ?? c.tomador.papel);
    const te = tipoEmissao(c);
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
    this.pair('ENDEREÇO', enderecoEmLinha(a), ix, ly, iw);
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
    this.pair('ENDEREÇO', enderecoEmLinha(a), ix, ly, iw * 0.78);
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
      const label = item
        ? `${item.tipo_medida ?? 'QUANTIDADE'} / ${(item.unidade && UNIDADE[item.unidade]) ?? item.unidade ?? ''}`
        : 'TP MED. / UN.';
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
      if (col > 0)
        this.doc
          .lineWidth(0.5)
          .moveTo(cx, top)
          .lineTo(cx, top + h)
          .stroke();
      this.line('NOME', cx + 2, top + 1.5, colW * 0.6, { font: 'Helvetica-Bold', size: LABEL });
      this.line('VALOR', cx + colW * 0.6, top + 1.5, colW * 0.4 - 3, { font: 'Helvetica-Bold', size: LABEL, align: 'right' });
    }
    shown.forEach((comp, i) => {
      const cx = X0 + (i % DacteWriter.COMP_COLS) * colW;
      const ry = top + 8 + Math.floor(i / DacteWriter.COMP_COLS) * ROW_H;
      this.line(comp.nome, cx + 2, ry, colW * 0.62 - 2, { size: 6.5 });
      this.line(money(comp.valor_centavos), cx + colW * 0.62, ry, colW * 0.38 - 3, { size: 6.5, align: 'right' });
    });
    this.field(X0 + gridW, top, CW - gridW, h / 2, 'VALOR TOTAL DO SERVIÇO', money(c.valor_prestacao_centavos), {
      bold: true,
      size: 9,
      align: 'right',
    });
    this.field(X0 + gridW, top + h / 2, CW - gridW, h / 2, 'VALOR A RECEBER', money(c.valor_receber_centavos), {
      bold: true,
      size: 9,
      align: 'right',
    });
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
    return this.grid({
      title,
      x: X0,
      y,
      w: CW,
      lines: rows,
      height,
      sides: 2,
      columns: [
        { label: 'TIPO DOC', width: 34 },
        { label: 'CNPJ/CPF EMITENTE', width: 74 },
        { label: 'SÉRIE/NRO. DOCUMENTO OU CHAVE DE ACESSO' },
      ],
      rows: docs.map((d) => [d.tipo, d.emitente, d.documento]),
    });
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
      this.line('ESTE CONHECIMENTO DE TRANSPORTE ATENDE À LEGISLAÇÃO DE TRANSPORTE RODOVIÁRIO EM VIGOR', X0 + 122, r + 7, CW - 124, {
        font: 'Helvetica-Bold',
        size: 6.5,
        align: 'center',
      });
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
  protected continuationHeader(y: number, folha: number): number {
    const c = this.cte;
    this.page = folha;
    return this.compactHeader(y, {
      title: this.especie.impresso.nome,
      issuer: c.emitente.nome ?? '',
      issuerLine: `CNPJ/CPF: ${document(c.emitente.documento)}`,
      modelo: c.modelo,
      serie: String(c.serie),
      numero: String(c.numero),
      emissao: dateTime(c.data_emissao),
      chave: c.chave,
      sheet: (x, sy, w, h) => this.sheetNumber(x, sy, w, h),
    });
  }

  private static metrics(b: Continuation) {
    return b.kind === 'docs' ? gridFlow(b.rows.length, 2) : textFlow(b.lines.length);
  }

  // ---- the document -------------------------------------------------------------------------------------------

  draw() {
    const c = this.cte;
    const doc = this.doc;

    // Sheet 1, top to bottom; the documents take the room left between the taxes and the observations.
    doc.addPage({ size: 'A4', margin: 0 });
    this.page = 1;
    this.marks();
    let y = this.receipt(CONTENT_TOP);
    y = this.header(y) + GAP;
    y = this.parties(y) + GAP;
    y = this.cargo(y) + GAP;
    y = this.components(y) + GAP;
    const docsTop = this.taxes(y) + GAP;

    const reservedH = 26;
    const modalH = BAND_H + 20;
    const obsRows = 5;
    const obsH = BAND_H + obsRows * TEXT_LINE_H + 4;
    const obsTop = BOTTOM - reservedH - GAP - modalH - GAP - obsH;
    const docRowsFit = Math.max(1, Math.floor((obsTop - GAP - docsTop - BAND_H - 8 - 2) / ROW_H));

    const docs = documentRows(c);
    const obsLines = observationText(c).flatMap((p) => this.wrap(p, CW - 6, 'Helvetica', TEXT_SIZE));
    const shownComponents = DacteWriter.COMP_COLS * DacteWriter.COMP_MAX_ROWS;
    const extraComponents = c.componentes.slice(shownComponents).map((k) => printableText(`${k.nome}: ${money(k.valor_centavos)}`));
    const extraQuantities = (c.carga?.quantidades ?? [])
      .slice(DacteWriter.QTY_SLOTS)
      .map((q) =>
        printableText(
          `${q.tipo_medida ?? 'QUANTIDADE'} / ${(q.unidade && UNIDADE[q.unidade]) ?? q.unidade ?? ''}: ${decimal(q.quantidade)}`,
        ),
      );

    const docsFirst = docs.slice(0, docRowsFit * 2);
    const obsFirst = obsLines.length > obsRows ? obsLines.slice(0, obsRows - 1) : obsLines;
    const blocks: Continuation[] = [];
    if (docsFirst.length < docs.length)
      blocks.push({ kind: 'docs', title: 'DOCUMENTOS ORIGINÁRIOS (CONTINUAÇÃO)', rows: docs.slice(docsFirst.length) });
    if (extraComponents.length > 0)
      blocks.push({ kind: 'text', title: 'COMPONENTES DO VALOR DA PRESTAÇÃO DO SERVIÇO (CONTINUAÇÃO)', lines: extraComponents });
    if (extraQuantities.length > 0) blocks.push({ kind: 'text', title: 'QUANTIDADES DA CARGA (CONTINUAÇÃO)', lines: extraQuantities });
    if (obsFirst.length < obsLines.length)
      blocks.push({ kind: 'text', title: 'OBSERVAÇÕES (CONTINUAÇÃO)', lines: obsLines.slice(obsFirst.length) });
    const continuation = paginate(blocks, DacteWriter.metrics, CONTENT_TOP + COMPACT_HEADER_H + GAP);
    const pages = 1 + continuation.length;

    this.docsGrid(
      `DOCUMENTOS ORIGINÁRIOS${docsFirst.length < docs.length ? ' (CONTINUA NA FOLHA 2)' : ''}`,
      docsFirst,
      docsTop,
      docRowsFit,
      obsTop - GAP - docsTop,
    );
    const obsShown = obsFirst.length < obsLines.length ? [...obsFirst, '(continua na folha 2)'] : obsFirst;
    y = this.textBox('OBSERVAÇÕES', obsShown, obsTop, obsRows) + GAP;
    y = this.modal(y) + GAP;
    this.reserved(y, reservedH);
    this.watermarks(this.status, this.sandbox);

    this.folhasDeContinuacao(continuation, (p) => {
      if (p.block.kind === 'docs') this.docsGrid(p.block.title, p.block.rows.slice(p.from, p.to), p.y, Math.ceil((p.to - p.from) / 2));
      else this.textBox(p.block.title, p.block.lines.slice(p.from, p.to), p.y, p.to - p.from);
    });

    // "FL n/N" on every sheet, now that N is known (the document buffers its pages).
    for (const slot of this.sheetSlots) {
      doc.switchToPage(slot.page - 1);
      this.line(`${slot.page}/${pages}`, slot.x + 2, slot.y + slot.h - VALUE * 1.2 - 1.5, slot.w - 4, { align: 'center' });
    }
  }
}

/** The DACTE of a CT-e as a PDF. */
export function renderDacte(cte: CteLido, options: DacteOptions): Promise<Buffer> {
  return renderDocumentoAuxiliar(CTE, cte, qrCodeText(cte), (doc, codigos) => new DacteWriter(doc, cte, options, codigos).draw());
}
