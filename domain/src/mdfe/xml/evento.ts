import { textoFiscal } from '../../cte/xml/montar';
import { MDFE_NS } from './montar';

/**
 * An `eventoMDFe` 3.00 (eventoMDFe_v3.00.xsd), compact and unsigned (the caller signs `eventoMDFe/infEvento`):
 * 110111 cancelamento (`evCancMDFe`), 110112 encerramento (`evEncMDFe`), 110114 inclusão de condutor
 * (`evIncCondutorMDFe`). The Id is `ID` + tpEvento + key + nSeqEvento in two digits; `cOrgao` is the key's UF.
 */
export type DetalheEventoMdfe =
  | { tipo: 'cancelamento'; nProt: string; justificativa: string }
  | { tipo: 'encerramento'; nProt: string; data: string; cUF: string; cMun: string }
  | { tipo: 'condutor'; nome: string; cpf: string };

export interface EventoMdfeInput {
  chave: string;
  cnpj: string;
  nSeq: number;
  /** `AAAA-MM-DDThh:mm:ss-03:00`. */
  dhEvento: string;
  ambiente: 'homologacao' | 'producao';
  detalhe: DetalheEventoMdfe;
}

const TP: Record<DetalheEventoMdfe['tipo'], string> = { cancelamento: '110111', encerramento: '110112', condutor: '110114' };
const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

function det(d: DetalheEventoMdfe): string {
  switch (d.tipo) {
    case 'cancelamento':
      return `<evCancMDFe><descEvento>Cancelamento</descEvento><nProt>${d.nProt}</nProt><xJust>${escapeXml(textoFiscal(d.justificativa, 255))}</xJust></evCancMDFe>`;
    case 'encerramento':
      return `<evEncMDFe><descEvento>Encerramento</descEvento><nProt>${d.nProt}</nProt><dtEnc>${d.data}</dtEnc><cUF>${d.cUF}</cUF><cMun>${d.cMun}</cMun></evEncMDFe>`;
    case 'condutor':
      return `<evIncCondutorMDFe><descEvento>Inclusao Condutor</descEvento><condutor><xNome>${escapeXml(textoFiscal(d.nome, 60))}</xNome><CPF>${d.cpf}</CPF></condutor></evIncCondutorMDFe>`;
  }
}

export function montarEventoMdfeXml(i: EventoMdfeInput): { id: string; tpEvento: string; xml: string } {
  const tpEvento = TP[i.detalhe.tipo];
  const id = `ID${tpEvento}${i.chave}${String(i.nSeq).padStart(2, '0')}`;
  const autor = i.cnpj.length === 11 ? `<CPF>${i.cnpj}</CPF>` : `<CNPJ>${i.cnpj}</CNPJ>`;
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?><eventoMDFe xmlns="${MDFE_NS}" versao="3.00"><infEvento Id="${id}"><cOrgao>${i.chave.slice(0, 2)}</cOrgao>` +
    `<tpAmb>${i.ambiente === 'producao' ? 1 : 2}</tpAmb>${autor}<chMDFe>${i.chave}</chMDFe><dhEvento>${i.dhEvento}</dhEvento>` +
    `<tpEvento>${tpEvento}</tpEvento><nSeqEvento>${i.nSeq}</nSeqEvento><detEvento versaoEvento="3.00">${det(i.detalhe)}</detEvento></infEvento></eventoMDFe>`;
  return { id, tpEvento, xml };
}
