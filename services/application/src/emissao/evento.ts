import { CertificadoRecusadoPelaAutoridade, type ProtocoloEvento, type RetornoEvento } from '@frete/adapters';
import { CSTAT_ERRO_NAO_CATALOGADO, motivoDaRecusa } from './emissor';
import { type DocumentStore } from '@frete/platform';

/** The authority's answer to a signed fiscal event, as both kinds of document record it. */
export type RespostaEvento =
  /** `sha256` names the archived event with its protocol (`procEventoCTe`, `procEventoMDFe`). */
  | { tipo: 'registrado'; protocolo: ProtocoloEvento; sha256: string }
  /**
   * `recusa`: the authority refused the company's client certificate before reading the event; the caller records the
   * refusal (the event can be asked again, with another certificate) and then throws it (422).
   */
  | { tipo: 'rejeitado'; cstat: number; motivo: string; recusa?: CertificadoRecusadoPelaAutoridade }
  /** No verdict yet: `motivo` is the authority's "in processing", or null when it did not answer. */
  | { tipo: 'pendente'; motivo: string | null };

/** Archives the event with its protocol, byte for byte, and names it by its hash. */
export async function arquivarProcEvento(documents: DocumentStore, proc: string): Promise<string> {
  return documents.put(Buffer.from(proc, 'utf8'), 'application/xml');
}

/**
 * Sends a signed event (archived before) and reads the answer: registered (or already registered, 631: the same
 * protocol) archives the proc; a refusal; or no verdict, after which the same bytes are sent again, never new ones.
 */
export async function enviarEvento(
  documents: DocumentStore,
  signed: string,
  registrar: (xml: string) => Promise<RetornoEvento>,
  procDe: (signed: string, protocolo: ProtocoloEvento) => string,
): Promise<RespostaEvento> {
  let r: RetornoEvento;
  try {
    r = await registrar(signed);
  } catch (error) {
    if (!(error instanceof CertificadoRecusadoPelaAutoridade)) throw error;
    return { tipo: 'rejeitado', cstat: CSTAT_ERRO_NAO_CATALOGADO, motivo: motivoDaRecusa(error), recusa: error };
  }
  switch (r.tipo) {
    case 'registrado':
    case 'duplicidade':
      return { tipo: 'registrado', protocolo: r.protocolo, sha256: await arquivarProcEvento(documents, procDe(signed, r.protocolo)) };
    case 'rejeitado':
      return { tipo: 'rejeitado', cstat: r.cStat, motivo: r.xMotivo };
    case 'em_processamento':
      return { tipo: 'pendente', motivo: `${r.cStat} ${r.xMotivo}` };
    case 'sem_resposta':
      return { tipo: 'pendente', motivo: null };
  }
}
