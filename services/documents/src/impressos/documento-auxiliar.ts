import { type EspecieDocumento } from '@frete/domain';
import { CONTENT_TOP, code128Png, PdfLayout, type Placed, qrCodePng, renderPdf } from './layout';

/** What names a printed fiscal document: its access key, series and number. */
export interface Identificacao {
  chave: string;
  serie: number | string;
  numero: number | string;
}

/** The key's Code-128 barcode and the QR code, drawn on the first sheet. */
export interface Codigos {
  barcode: Buffer;
  qr: Buffer | null;
}

/**
 * A printed fiscal document of a kind (`CTE` → DACTE, `MDFE` → DAMDFE) as a PDF, the same for every kind: the key's
 * barcode and the QR code made together, the PDF titled by the kind's printed name and numbered in its series.
 */
export async function renderDocumentoAuxiliar(
  especie: EspecieDocumento,
  id: Identificacao,
  qrCode: string | null,
  draw: (doc: PDFKit.PDFDocument, codigos: Codigos) => void,
): Promise<Buffer> {
  const [barcode, qr] = await Promise.all([code128Png(id.chave), qrCode ? qrCodePng(qrCode) : Promise.resolve(null)]);
  return renderPdf({ Title: `${especie.impresso.nome} ${id.chave}`, Subject: `${especie.nome} ${id.serie}/${id.numero}` }, (doc) =>
    draw(doc, { barcode, qr }),
  );
}

/**
 * What the writers of DACTE and DAMDFE share: the notices strip says the sandbox and the document's status in the
 * kind's words (`CT-E CANCELADO`, `MDF-E ENCERRADO`), and the sheets after the first repeat the marks, a compact
 * header and the watermarks around the blocks that did not fit on the first.
 */
export abstract class DocumentoAuxiliar extends PdfLayout {
  constructor(
    doc: PDFKit.PDFDocument,
    protected readonly especie: EspecieDocumento,
    /** The homologação environment: "SEM VALOR FISCAL" on every sheet. */
    protected readonly sandbox: boolean,
    /** `CANCELADO`, `ENCERRADO`: marked on every sheet; null for a document in force. */
    protected readonly status: string | null,
  ) {
    super(doc);
  }

  /** The kind's compact header of continuation sheet `folha` (2 onwards). */
  protected abstract continuationHeader(y: number, folha: number): number;

  /** The notices strip: the sandbox notice in the kind's manual's words, then `extra`, then the status. */
  protected avisos(avisoHomologacao: string, ...extra: (string | null | undefined)[]) {
    const status = this.status ? `${this.especie.nome.toUpperCase()} ${this.status}` : null;
    this.notices([this.sandbox ? avisoHomologacao : null, ...extra, status].filter((n): n is string => !!n));
  }

  protected abstract marks(): void;

  /** Sheets 2 onwards: each with its marks, compact header and watermarks around the blocks placed on it. */
  protected folhasDeContinuacao<B>(continuation: readonly Placed<B>[][], bloco: (p: Placed<B>) => void): void {
    continuation.forEach((placed, i) => {
      this.doc.addPage({ size: 'A4', margin: 0 });
      this.marks();
      this.continuationHeader(CONTENT_TOP, i + 2);
      for (const p of placed) bloco(p);
      this.watermarks(this.status, this.sandbox);
    });
  }
}
