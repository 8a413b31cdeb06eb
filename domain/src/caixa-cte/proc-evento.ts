import { isValidAccessKey } from '../fiscal/access-key';
import { CSTAT_EVENTO_REGISTRADO } from '../cte/eventos/correcoes';
import { CteReadError } from '../cte/reader';
import { excerpt } from '../xml/excerpt';
import { fiscalXmlParser } from '../xml/fiscal-xml';
import { node, text } from '../xml/nodes';

/**
 * A CT-e event as the national distribution hands it to the parties of the CT-e: `procEventoCTe` = the signed
 * `eventoCTe` and the authority's `retEventoCTe` (procEventoCTe_v4.00.xsd → TProcEvento, eventoCTeTiposBasico_v4.00.xsd
 * of nfephp-org/sped-cte `schemes/PL_CTe_400/`). The event is read from `eventoCTe/infEvento` (`chCTe`, `tpEvento`,
 * `nSeqEvento`) and its registration from `retEventoCTe/infEvento` (`cStat`, `nProt`, `dhRegEvento`), which must name
 * the same key and type. A cancellation is `tpEvento` 110111 (`evCancCTe`, MOC 4.00 Visão Geral §5.1 event table).
 */
export interface ProcEventoCteLido {
  chave: string;
  tp_evento: string;
  n_seq_evento: number;
  /** The registration, when the authority registered it (cStat 135/136, `CSTAT_EVENTO_REGISTRADO`); null otherwise. */
  registro: { protocolo: string; registrado_em: string; cstat: number } | null;
}

/** tpEvento of the issuer's cancellation of a CT-e (MOC 4.00 Visão Geral §5.1, `evCancCTe`). */
export const TP_EVENTO_CANCELAMENTO_CTE = '110111';

const notEvento = (message: string) => new CteReadError('documento_nao_e_cte', message);

const parse = fiscalXmlParser({ proc: 'procEventoCTe', root: 'eventoCTe', arrays: [] }, (refusal, message) =>
  refusal === 'not_this_document' ? notEvento(message) : new CteReadError(refusal, message),
);

/** Reads a `procEventoCTe` (or refuses it with a `CteReadError`: hostile, malformed, or not a CT-e event). */
export function lerProcEventoCte(input: string): ProcEventoCteLido {
  const { proc, root } = parse(input.replace(/^\uFEFF?\s*/, ''));
  if (!proc) throw notEvento('a bare eventoCTe carries no registration: expected procEventoCTe');
  const inf = node(root.infEvento);
  if (!inf) throw notEvento('missing eventoCTe/infEvento');
  const chave = text(inf.chCTe);
  const tpEvento = text(inf.tpEvento);
  const nSeq = text(inf.nSeqEvento);
  if (!chave || !isValidAccessKey(chave))
    throw new CteReadError('chave_invalida', `eventoCTe chCTe ${excerpt(chave ?? '')} is not an access key`);
  if (!tpEvento || !/^[0-9]{6}$/.test(tpEvento)) throw notEvento(`eventoCTe tpEvento ${excerpt(tpEvento ?? '')} is not an event type`);
  if (!nSeq || !/^[0-9]{1,3}$/.test(nSeq)) throw notEvento(`eventoCTe nSeqEvento ${excerpt(nSeq ?? '')} is not a sequence`);

  const ret = node(node(proc.retEventoCTe)?.infEvento);
  if (!ret) throw notEvento('missing retEventoCTe/infEvento');
  const cStat = Number(text(ret.cStat));
  if (text(ret.chCTe) !== null && text(ret.chCTe) !== chave) {
    throw new CteReadError('chave_invalida', `retEventoCTe names access key ${excerpt(text(ret.chCTe)!)}, not ${chave}`);
  }
  if (text(ret.tpEvento) !== null && text(ret.tpEvento) !== tpEvento) {
    throw notEvento(`retEventoCTe is of event ${excerpt(text(ret.tpEvento)!)}, not ${tpEvento}`);
  }
  const protocolo = text(ret.nProt);
  const registradoEm = text(ret.dhRegEvento);
  const registrado = CSTAT_EVENTO_REGISTRADO.includes(cStat) && protocolo !== null && registradoEm !== null;
  return {
    chave,
    tp_evento: tpEvento,
    n_seq_evento: Number(nSeq),
    registro: registrado ? { protocolo, registrado_em: registradoEm, cstat: cStat } : null,
  };
}
