import { REGRAS_CTE } from './cte';
import { DocumentoIlegivel, type DocumentoFiscal, lerDocumentoFiscal, type ModeloRegras } from './documento';
import { REGRAS_MDFE } from './mdfe';
import { type ContextoRegras, type RegraAutoridade, type RejeicaoPrevista } from './tipos';

export { REGRAS_CTE, CFOP_DO_CTE } from './cte';
export { REGRAS_MDFE } from './mdfe';
export { chaveComposta, emitenteDaChave } from './comuns';
export { DocumentoIlegivel, type DocumentoFiscal, lerDocumentoFiscal, type ModeloRegras } from './documento';
export { type DocumentosAnteriores, falhasDocumentosAnteriores, recusaDocumentosAnteriores } from './documentos-anteriores';
export { type ContextoRegras, type RegraAutoridade, type RejeicaoPrevista } from './tipos';

/**
 * The authority's business rules over a document, after its schema and signature: ONE implementation, run by the
 * simulated authority (which answers the first failure, as an authority stops at the first) and by the previews and
 * the issue (which report every failure, so that nothing is sent that would be rejected).
 */
export const REGRAS_AUTORIDADE: Record<ModeloRegras, readonly RegraAutoridade[]> = { cte: REGRAS_CTE, mdfe: REGRAS_MDFE };

/** `xMotivo` never exceeds 255 characters (`TMotivo`). */
const MAX_MOTIVO = 255;
const motivo = (texto: string, detalhe: string) => {
  const completo = detalhe ? `${texto} ${detalhe}` : texto;
  return completo.length <= MAX_MOTIVO ? completo : `${completo.slice(0, MAX_MOTIVO - 1)}…`;
};

/** Every rule the parsed document fails, in the manual's order. */
export function rejeicoesDoDocumento(doc: DocumentoFiscal, ctx: ContextoRegras): RejeicaoPrevista[] {
  const rejeicoes: RejeicaoPrevista[] = [];
  for (const r of REGRAS_AUTORIDADE[doc.modelo]) {
    const detalhe = r.verificar(doc, ctx);
    if (detalhe !== null) rejeicoes.push({ cStat: r.cStat, xMotivo: motivo(r.xMotivo, detalhe), regra: r.regra, fonte: r.fonte });
  }
  return rejeicoes;
}

/** Every rule the document's XML fails, in the manual's order; a malformed XML fails 243 alone. */
export function rejeicoesPrevistas(modelo: ModeloRegras, xml: string, ctx: ContextoRegras): RejeicaoPrevista[] {
  let doc: DocumentoFiscal;
  try {
    doc = lerDocumentoFiscal(modelo, xml);
  } catch (error) {
    if (!(error instanceof DocumentoIlegivel)) throw error;
    return [{ cStat: 243, xMotivo: 'Rejeição: XML Mal Formado', regra: 'B02', fonte: 'MOC CT-e 4.00 Visão Geral, B02' }];
  }
  return rejeicoesDoDocumento(doc, ctx);
}

/** The environment a build writes (`tpAmb`): produção 1, anything else 2 (homologação). */
export const tpAmbDoAmbiente = (ambiente: string): 1 | 2 => (ambiente === 'producao' ? 1 : 2);
