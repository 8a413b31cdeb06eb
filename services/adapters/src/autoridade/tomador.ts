import { childElements, type XmlElement } from '@frete/documents';
import { PRAZO_DESACORDO_DIAS, DESACORDO_SEQ_MAXIMA } from '@frete/domain';

/**
 * What the simulated authority checks of the taker's events (MOC 4.00 Visão Geral §3.7.1 "Evento: Tomador", §5.1.5,
 * §6.5, §6.6): 610110 prestação do serviço em desacordo and 610111 its cancellation. Their author is the CT-e's taker,
 * not its emitter (N17's 632 applies to the emitter's events; N19's 755 to these).
 */

export const TP_DESACORDO = '610110';
export const TP_CANCELAMENTO_DESACORDO = '610111';
export const EVENTOS_DO_TOMADOR: ReadonlySet<string> = new Set([TP_DESACORDO, TP_CANCELAMENTO_DESACORDO]);

/** The layout's entries of the taker's events: the detail element and `xEvento` (§3.7.1's descriptions). */
export const TIPOS_EVENTO_TOMADOR = {
  [TP_DESACORDO]: { det: 'evPrestDesacordo', xEvento: 'Prestação do Serviço em Desacordo' },
  [TP_CANCELAMENTO_DESACORDO]: { det: 'evCancPrestDesacordo', xEvento: 'Cancelamento Prestação do Serviço em Desacordo' },
} as const;

const nome = (el: XmlElement) => el.localName ?? el.nodeName;
const filho = (el: XmlElement | undefined, n: string) => (el ? childElements(el).find((c) => nome(c) === n) : undefined);
const texto = (el: XmlElement | undefined, n: string): string | null => {
  const f = filho(el, n);
  return f ? (f.textContent ?? '') : null;
};
const TOMA3 = ['rem', 'exped', 'receb', 'dest'];

/**
 * The taker's CNPJ (or `000` + CPF, as authors are kept) of a CT-e's `infCte`: the party `toma3/toma` names (0
 * remetente, 1 expedidor, 2 recebedor, 3 destinatário) or `toma4`; null when none (a CT-e OS names it otherwise).
 */
export function tomadorDoCte(inf: XmlElement): string | null {
  const ide = filho(inf, 'ide');
  const toma3 = texto(filho(ide, 'toma3'), 'toma');
  const parte = toma3 !== null ? filho(inf, TOMA3[Number(toma3)] ?? '') : filho(ide, 'toma4');
  const cnpj = texto(parte, 'CNPJ');
  if (cnpj) return cnpj;
  const cpf = texto(parte, 'CPF');
  return cpf ? `000${cpf}` : null;
}

/**
 * The author rule of an event (§5.1.5): the taker's events need the CT-e's taker (N19, 755), every other event the
 * emitter (N17, 632). Null when the author may register it.
 */
export function recusaDoAutor(tpEvento: string, autor: string, doc: { emitente: string; tomador: string | null }): number | null {
  if (EVENTOS_DO_TOMADOR.has(tpEvento)) return doc.tomador !== null && autor === doc.tomador ? null : 755;
  return autor === doc.emitente ? null : 632;
}

/** What the rules of §6.5.1 / §6.6.1 ask of the authority's records. */
export interface ConsultasDoTomador {
  /** A substitute CT-e (tpCTe 3) authorized for this one (O04 / O02: 664). */
  substituido(): Promise<boolean>;
  /** A registered 610110 (not cancelled) with this protocol (§6.6.1 O03). */
  desacordoRegistrado(nProt: string): Promise<boolean>;
}

/**
 * §6.5.1 (610110): sequence 1–20 (O01, 636), no substitute (O04, 664), within 45 days of the authorization (O05, 787);
 * the denied/cancelled states (O02/O03: 205/218) are checked before, as for every event. §6.6.1 (610111): 636, 664,
 * and the protocol of a registered 610110 (O03, 866). Returns the cStat of the first rule broken, or null; for a
 * 610111, the protocol it cancels is `det`'s `nProtEvPrestDes`.
 */
export async function recusaDoEventoDoTomador(
  tpEvento: string,
  nSeqEvento: number,
  det: XmlElement,
  autorizadoEm: Date,
  agora: Date,
  consultas: ConsultasDoTomador,
): Promise<number | null> {
  if (nSeqEvento < 1 || nSeqEvento > DESACORDO_SEQ_MAXIMA) return 636;
  if (await consultas.substituido()) return 664;
  if (tpEvento === TP_DESACORDO) {
    return agora.getTime() - autorizadoEm.getTime() > PRAZO_DESACORDO_DIAS * 86_400_000 ? 787 : null;
  }
  return (await consultas.desacordoRegistrado(texto(det, 'nProtEvPrestDes') ?? '')) ? null : 866;
}

/** `nProtEvPrestDes` of a 610111: the protocol of the desacordo it cancels. */
export const protocoloCanceladoPeloTomador = (det: XmlElement): string | null => texto(det, 'nProtEvPrestDes');
