import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { ZipFile } from 'yazl';
import { accessKeyCheckDigit } from '@frete/domain';

/** An NF-e sample from test/fixtures/nfe, as bytes. */
export const nfeSample = (name: string): Buffer => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'nfe', name));

/** The access key printed as DANFEs do: 11 groups of 4. */
export const groupedKey = (key: string) => key.replace(/(.{4})/g, '$1 ').trim();

/** A valid key of model 55 made from a base of 43 characters' worth of fields, with the check digit computed. */
export function nfeKey(o: { uf?: string; aamm?: string; cnpj?: string; serie?: number; numero: number; codigo?: string }): string {
  const first43 =
    `${o.uf ?? '35'}${o.aamm ?? '2401'}${o.cnpj ?? '34128745000152'}55${String(o.serie ?? 1).padStart(3, '0')}` +
    `${String(o.numero).padStart(9, '0')}1${o.codigo ?? '12345678'}`;
  return first43 + accessKeyCheckDigit(first43);
}

/**
 * A DANFE-like PDF: per page, a header with the document's own key in groups of 4, then other numbers of the kind a
 * DANFE prints (CNPJ, number, series, a referenced key).
 */
export function danfePdf(pages: { key: string | null; extra?: string }[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 30, autoFirstPage: false });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const page of pages) {
      doc.addPage();
      doc.fontSize(14).text('DANFE - Documento Auxiliar da Nota Fiscal Eletrônica');
      doc.fontSize(9).text('0 - ENTRADA  1 - SAÍDA   Nº 000.047.428  SÉRIE 001  FOLHA 1/1');
      if (page.key) {
        doc.text('CHAVE DE ACESSO');
        doc.fontSize(11).text(groupedKey(page.key));
      }
      doc.fontSize(9).text('Consulta de autenticidade no portal nacional da NF-e www.nfe.fazenda.gov.br/portal');
      doc.text('CNPJ 34.128.745/0001-52   INSCRIÇÃO ESTADUAL 803879214167');
      if (page.extra) doc.text(page.extra);
    }
    doc.end();
  });
}

/** A ZIP built with yazl; `compress` false stores the entry as is; a name ending in `/` is a directory. */
export function zipOf(entries: { name: string; content: Buffer; compress?: boolean }[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new ZipFile();
    for (const e of entries) {
      if (e.name.endsWith('/')) zip.addEmptyDirectory(e.name);
      else zip.addBuffer(e.content, e.name, { compress: e.compress ?? true });
    }
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}
