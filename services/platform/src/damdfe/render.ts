import PDFDocument from 'pdfkit';
import bwipjs from 'bwip-js';
import { type Environment } from '@frete/contracts';

/**
 * The DAMDFE (Documento Auxiliar do MDF-e), portrait A4: header with the issuer, model, series, number, issue time,
 * UFs, the Code-128 barcode of the access key and the QR code of `infMDFeSupl/qrCodMDFe`, the authorization protocol;
 * then the road modal (RNTRC, vehicles, drivers), the CT-e keys, totals and observations. Homologação carries
 * "SEM VALOR FISCAL"; a cancelled or closed MDF-e says so.
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

const groupedKey = (k: string) => k.replace(/(.{4})/g, '$1 ').trim();

export async function renderDamdfe(d: DamdfeDados, o: DamdfeOptions): Promise<Buffer> {
  const [barcode, qr] = await Promise.all([
    bwipjs.toBuffer({ bcid: 'code128', text: d.chave, scale: 3, height: 12, includetext: false, paddingwidth: 0, paddingheight: 0 }),
    bwipjs.toBuffer({ bcid: 'qrcode', text: d.qr_code, scale: 4, eclevel: 'M', paddingwidth: 0, paddingheight: 0 } as bwipjs.RenderOptions),
  ]);
  const doc = new PDFDocument({ size: 'A4', margin: 28, info: { Title: `DAMDFE ${d.chave}`, Creator: 'frete-fiscal', Producer: 'frete-fiscal' } });
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const W = 539;
  const line = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(7).text(label, { continued: true }).font('Helvetica').text(` ${value}`, { width: W });
  };
  const section = (title: string) => {
    doc.moveDown(0.5).font('Helvetica-Bold').fontSize(8).fillColor('#000').text(title, { width: W });
    doc.moveTo(28, doc.y).lineTo(28 + W, doc.y).stroke();
    doc.moveDown(0.2);
  };

  doc.font('Helvetica-Bold').fontSize(10).text(d.emitente.nome, 28, 28, { width: 330 });
  doc.font('Helvetica').fontSize(7)
    .text(`CNPJ: ${d.emitente.cnpj}   IE: ${d.emitente.ie ?? ''}`, { width: 330 })
    .text(d.emitente.endereco, { width: 330 });
  doc.image(qr, 28 + W - 80, 28, { width: 80, height: 80 });
  doc.font('Helvetica-Bold').fontSize(12).text('DAMDFE - Documento Auxiliar de Manifesto Eletrônico de Documentos Fiscais', 28, 78, { width: 420 });
  doc.image(barcode, 28, 112, { width: 330, height: 34 });
  doc.font('Helvetica').fontSize(8).text(`CHAVE DE ACESSO: ${groupedKey(d.chave)}`, 28, 150, { width: W });
  doc.text(d.chave, { width: W });
  doc.moveDown(0.3);
  line('MODELO', `58   SÉRIE ${d.serie}   NÚMERO ${d.numero}   FL 1/1   EMISSÃO ${d.data_emissao}   UF INÍCIO ${d.uf_inicio}   UF FIM ${d.uf_fim}`);
  line('PROTOCOLO DE AUTORIZAÇÃO', d.protocolo ? `${d.protocolo.numero} - ${d.protocolo.recebido_em}` : '');
  if (d.percurso.length > 0) line('PERCURSO', d.percurso.join(' / '));
  if (o.environment === 'homologacao') {
    doc.moveDown(0.3).font('Helvetica-Bold').fontSize(11).fillColor('#b00').text('SEM VALOR FISCAL - EMITIDO EM AMBIENTE DE HOMOLOGAÇÃO', { width: W, align: 'center' }).fillColor('#000');
  }
  if (o.situacao) doc.font('Helvetica-Bold').fontSize(14).fillColor('#b00').text(o.situacao === 'cancelado' ? 'CANCELADO' : 'ENCERRADO', { width: W, align: 'center' }).fillColor('#000');

  section('MODAL RODOVIÁRIO DE CARGA');
  line('RNTRC', d.rntrc ?? '');
  line('QTD. CT-e', `${d.qtd_cte}   VALOR DA CARGA R$ ${d.valor_carga}   PESO TOTAL (KG) ${d.peso_kg}`);
  section('VEÍCULOS');
  for (const v of d.veiculos) line(v.tipo, `PLACA ${v.placa}   UF ${v.uf}`);
  section('CONDUTORES');
  for (const c of d.condutores) line('CPF', `${c.cpf}   NOME ${c.nome}`);
  section('CARREGAMENTO / DESCARREGAMENTO');
  line('CARREGAMENTO', d.carregamento.join(', '));
  line('DESCARREGAMENTO', d.descarregamento.join(', '));
  section('DOCUMENTOS (CT-e)');
  doc.font('Helvetica').fontSize(7);
  for (const k of d.ctes) doc.text(k, { width: W });
  section('OBSERVAÇÕES');
  doc.font('Helvetica').fontSize(7).text(d.observacoes ?? '', { width: W });
  doc.end();
  return done;
}
