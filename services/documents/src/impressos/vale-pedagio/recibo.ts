import { type Environment, type ValePedagio } from '@frete/contracts';
import { brlDeCentavos, centavosDeReais, dhSaoPaulo } from '@frete/domain';
import { dateTime, document } from '../format';
import { BAND_H, CONTENT_TOP, CW, GAP, PdfLayout, X0, renderPdf } from '../layout';

/**
 * The receipt of a mandatory toll pass (VPO), one A4 sheet: the purchase (IDVPO, issue, situation, type), the
 * supplier (FVPO) and the payer, the vehicle and trip, the plazas in order of passage with their tariffs and
 * passages, the values debited (and refunded), and the MDF-e `valePed` group to copy. A cancelled toll pass says so;
 * the sandbox's carries "SEM VALOR" marks (the simulated supplier has no regulatory effect).
 */
export interface ReciboValePedagioDados {
  vale: ValePedagio;
  pagador_nome: string;
}

const FIELD_H = 22;
const SANDBOX_NOTICE = 'SEM VALOR - EMITIDO EM AMBIENTE DE HOMOLOGAÇÃO (FORNECEDOR SIMULADO, SEM EFEITO REGULATÓRIO)';

const brl = (reais: number) => `R$ ${brlDeCentavos(centavosDeReais(reais))}`;
const instante = (iso: string | null) => (iso ? dateTime(dhSaoPaulo(new Date(iso))) : '');

class ReciboValePedagio extends PdfLayout {
  draw(d: ReciboValePedagioDados, environment: Environment): void {
    const v = d.vale;
    this.doc.addPage({ size: 'A4', margin: 0 });
    const sandbox = environment === 'homologacao';
    const notes = [
      ...(sandbox ? [SANDBOX_NOTICE] : []),
      ...(v.situacao === 'cancelado' ? [`CANCELADO EM ${instante(v.cancelado_em)}`] : []),
    ];
    this.notices(notes);
    this.watermarks(v.situacao === 'cancelado' ? 'CANCELADO' : null, sandbox);

    let y = CONTENT_TOP;
    this.box(X0, y, CW, 40);
    this.line('RECIBO DE VALE-PEDÁGIO OBRIGATÓRIO', X0, y + 7, CW, { font: 'Helvetica-Bold', size: 14, align: 'center' });
    this.line('Lei 10.209/2001 - Resolução ANTT 6.024/2023 - valor não integra o frete', X0, y + 26, CW, { size: 7, align: 'center' });
    y += 40 + GAP;

    const w4 = CW / 4;
    this.field(X0, y, w4, FIELD_H, 'Nº DA COMPRA (IDVPO / nCompra)', v.numero, { bold: true });
    this.field(X0 + w4, y, w4, FIELD_H, 'EMISSÃO (HORÁRIO DE BRASÍLIA)', instante(v.emitido_em));
    this.field(X0 + 2 * w4, y, w4, FIELD_H, 'SITUAÇÃO', v.situacao.toUpperCase().replace('_', ' '), { bold: true });
    this.field(X0 + 3 * w4, y, w4, FIELD_H, 'TIPO', v.tipo === 'TAG' ? 'TAG (01)' : 'LEITURA DE PLACA (04)');
    y += FIELD_H;
    this.field(X0, y, CW / 2, FIELD_H, 'FORNECEDOR (FVPO)', `${v.fornecedor.nome} - CNPJ ${document(v.fornecedor.cnpj)}`);
    this.field(X0 + CW / 2, y, CW / 2, FIELD_H, 'RESPONSÁVEL PELO PAGAMENTO', `${d.pagador_nome} - CNPJ ${document(v.pagador.cnpj)}`);
    y += FIELD_H;
    this.field(X0, y, w4, FIELD_H, 'PLACA', v.placa, { bold: true });
    this.field(X0 + w4, y, w4, FIELD_H, 'CATEGORIA (categCombVeic)', `${v.categoria} - ${v.eixos} EIXOS`);
    this.field(
      X0 + 2 * w4,
      y,
      2 * w4,
      FIELD_H,
      'MOTORISTA',
      v.motorista ? `${document(v.motorista.cpf)}${v.motorista.nome ? ` - ${v.motorista.nome}` : ''}` : '',
    );
    y += FIELD_H;
    this.field(X0, y, CW / 2, FIELD_H, 'ORIGEM', `${v.origem.municipio}/${v.origem.uf} (IBGE ${v.origem.codigo_ibge})`);
    this.field(X0 + CW / 2, y, CW / 2, FIELD_H, 'DESTINO', `${v.destino.municipio}/${v.destino.uf} (IBGE ${v.destino.codigo_ibge})`);
    y += FIELD_H;
    this.field(X0, y, w4, FIELD_H, 'DISTÂNCIA ESTIMADA', `${v.distancia_km} km`);
    this.field(X0 + w4, y, w4, FIELD_H, 'PRAÇAS', String(v.quantidade_pracas));
    this.field(X0 + 2 * w4, y, w4, FIELD_H, 'CT-e', v.cte ?? '');
    this.field(X0 + 3 * w4, y, w4, FIELD_H, 'MDF-e', v.mdfe ?? '');
    y += FIELD_H + GAP;

    const rows = v.pracas.map((p) => [
      String(p.ordem),
      p.nome,
      p.rodovia,
      p.km.toFixed(1).replace('.', ','),
      p.uf,
      p.concessionaria,
      brl(p.tarifa),
      instante(p.passou_em),
    ]);
    y =
      this.grid({
        title: 'PRAÇAS DE PEDÁGIO DO PERCURSO (ORDEM DE PASSAGEM)',
        x: X0,
        y,
        w: CW,
        lines: Math.max(1, rows.length),
        rows,
        columns: [
          { label: 'ORD', width: 22 },
          { label: 'PRAÇA', width: 150 },
          { label: 'RODOVIA', width: 48 },
          { label: 'KM', width: 36 },
          { label: 'UF', width: 20 },
          { label: 'CONCESSIONÁRIA', width: 120 },
          { label: 'TARIFA', width: 70 },
          { label: 'PASSAGEM' },
        ],
      }) + GAP;

    this.band('VALORES', X0, y, CW);
    y += BAND_H;
    const w3 = CW / 3;
    this.field(X0, y, w3, FIELD_H, 'VALOR DO VALE-PEDÁGIO (vValePed)', brl(v.valor_pedagio), { bold: true, align: 'right' });
    this.field(X0 + w3, y, w3, FIELD_H, 'TAXA DE SERVIÇO', brl(v.taxa), { align: 'right' });
    this.field(X0 + 2 * w3, y, w3, FIELD_H, 'TOTAL DEBITADO DA CONTA OPERACIONAL', brl(v.valor_total), { bold: true, align: 'right' });
    y += FIELD_H;
    if (v.estornado_em) {
      this.field(
        X0,
        y,
        CW,
        FIELD_H,
        'ESTORNO',
        `${brl(v.valor_total)} (pedágio e taxa) devolvidos à conta operacional em ${instante(v.estornado_em)}`,
      );
      y += FIELD_H;
    }
    y += GAP;

    const m = v.mdfe_vale_ped;
    this.textBox(
      'MDF-e - infANTT/valePed (para o manifesto da viagem)',
      [
        `CNPJForn ${m.CNPJForn}   CNPJPg ${m.CNPJPg}   nCompra ${m.nCompra}   vValePed ${m.vValePed}   tpValePed ${m.tpValePed}   categCombVeic ${m.categCombVeic}`,
        `Cancelamento aceito somente antes de ${instante(v.cancelavel_ate)} (3 horas após a emissão) e antes da primeira passagem por praça.`,
        `Identificador: ${v.id}${v.referencia_externa ? `   Referência externa: ${v.referencia_externa}` : ''}`,
      ],
      y,
      3,
    );
  }
}

/** The toll pass's receipt as a PDF (A4 portrait). */
export function renderReciboValePedagio(d: ReciboValePedagioDados, options: { environment: Environment }): Promise<Buffer> {
  return renderPdf({ Title: `Recibo de Vale-Pedágio ${d.vale.numero}`, Subject: 'Vale-Pedágio obrigatório (VPO)' }, (doc) =>
    new ReciboValePedagio(doc).draw(d, options.environment),
  );
}
