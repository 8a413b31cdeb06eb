import { type ProtocoloDocumento, type ProtocoloEvento } from './port';

/**
 * The distribution files (`cteProc`, `mdfeProc`, `procEventoCTe`, `procEventoMDFe`) from the signed document as
 * sent and the authority's protocol as written: both are copied byte for byte (only the XML declaration and a BOM of
 * the signed document are dropped, since it goes inside another element).
 */

const CTE_NS = 'http://www.portalfiscal.inf.br/cte';
const MDFE_NS = 'http://www.portalfiscal.inf.br/mdfe';
const DECLARACAO = '<?xml version="1.0" encoding="UTF-8"?>';

/** The signed element without the XML declaration (and BOM or whitespace before it). */
export function semDeclaracao(xml: string): string {
  return xml.replace(/^\uFEFF?\s*(<\?xml[^?]*\?>)?\s*/, '');
}

export const montarCteProc = (cteAssinado: string, protocolo: Pick<ProtocoloDocumento, 'xml'>): string =>
  `${DECLARACAO}<cteProc xmlns="${CTE_NS}" versao="4.00">${semDeclaracao(cteAssinado)}${protocolo.xml}</cteProc>`;

export const montarMdfeProc = (mdfeAssinado: string, protocolo: Pick<ProtocoloDocumento, 'xml'>): string =>
  `${DECLARACAO}<mdfeProc xmlns="${MDFE_NS}" versao="3.00">${semDeclaracao(mdfeAssinado)}${protocolo.xml}</mdfeProc>`;

export const montarProcEventoCte = (eventoAssinado: string, protocolo: Pick<ProtocoloEvento, 'xml'>): string =>
  `${DECLARACAO}<procEventoCTe xmlns="${CTE_NS}" versao="4.00">${semDeclaracao(eventoAssinado)}${protocolo.xml}</procEventoCTe>`;

export const montarProcEventoMdfe = (eventoAssinado: string, protocolo: Pick<ProtocoloEvento, 'xml'>): string =>
  `${DECLARACAO}<procEventoMDFe xmlns="${MDFE_NS}" versao="3.00">${semDeclaracao(eventoAssinado)}${protocolo.xml}</procEventoMDFe>`;
