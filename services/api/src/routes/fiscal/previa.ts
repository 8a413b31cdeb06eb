import { Type } from '@sinclair/typebox';
import { type RejeicaoPrevista } from '@frete/domain';
import { type FiscalSchemaError } from '@frete/documents';

/** One authority rule a previewed document fails: what the authority would answer, and the manual's rule. */
export const RejeicaoPrevistaView = Type.Object({
  cstat: Type.Integer({ description: "The authority's status code (`cStat`)" }),
  motivo: Type.String({ description: "The authority's text (`xMotivo`), as the manual writes it, with the detail the authority appends" }),
  regra: Type.String({ description: "The manual's rule id (`G050`), or the technical note's field" }),
  fonte: Type.String({ description: 'Where the rule is written: manual and section, or technical note and version' }),
});

export const rejeicoesDescricao =
  "Every business rule of the authority the document fails, in the manual's order, with the cStat and text the authority would answer: " +
  'the same rule set the simulated authority runs (MOC CT-e 4.00 Anexo I rules G0xx, MDF-e identity, NT 2025.001 rates). Empty when ' +
  'the document passes them, or while there is no XML yet. An issue of a document with any is refused (422 `rejeicao_prevista`).';

export const rejeicoesView = (rejeicoes: RejeicaoPrevista[]) =>
  rejeicoes.map((r) => ({ cstat: r.cStat, motivo: r.xMotivo, regra: r.regra, fonte: r.fonte }));

/** The number a preview writes: the series' next number is reserved only when the document is issued. */
export const NUMERO_PROVISORIO = 0;

/**
 * The schema errors a preview expects, not pending items: the missing Signature (a preview is unsigned) and the
 * provisional number 0 at `caminhoNumero` (`/CTe/infCte/ide/nCT`, `/MDFe/infMDFe/ide/nMDF`).
 */
export const erroEsperadoNaPrevia =
  (raiz: 'CTe' | 'MDFe', caminhoNumero: string) =>
  (e: FiscalSchemaError): boolean =>
    (e.path === `/${raiz}` && /Signature/.test(e.message)) || (e.path === caminhoNumero && NUMERO_PROVISORIO === 0);
