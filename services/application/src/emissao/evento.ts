import { CertificadoRecusadoPelaAutoridade, type ProtocoloEvento, type RetornoConsulta, type RetornoEvento } from '@frete/adapters';
import { CSTAT_ERRO_NAO_CATALOGADO, motivoDaRecusa } from './emissor';
import { type DocumentStore } from '@frete/platform';
import { type AssinaturaDeps, assinarXml } from './assinar';

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

/** eventoCTe_v4.00.xsd refused (MOC 4.00 §5.1.5: 215 for the event web service). */
const CSTAT_FALHA_SCHEMA_EVENTO_CTE = 215;

/**
 * Signs an `eventoCTe` on `infEvento` with the company's A1, validates it against eventoCTe_v4.00.xsd (its detEvento
 * schema included) and archives the signed bytes, the only ones ever sent for its key: `sha256` names them. A refusal
 * (no certificate, the schema) is said before anything is sent.
 */
export async function assinarEventoCte(
  deps: AssinaturaDeps & { documents: DocumentStore },
  o: { companyId: string; certificadoBlobId: string | null; xml: string },
): Promise<{ tipo: 'assinado'; xml: string; sha256: string } | { tipo: 'recusado'; cstat: number; motivo: string }> {
  const assinado = await assinarXml(deps, {
    ...o,
    element: 'infEvento',
    schema: 'eventoCTe_v4.00.xsd',
    falha: { cstat: CSTAT_FALHA_SCHEMA_EVENTO_CTE, texto: 'Rejeição: Falha no schema XML' },
  });
  if (assinado.tipo === 'recusado') return assinado;
  return { ...assinado, sha256: await deps.documents.put(Buffer.from(assinado.xml, 'utf8'), 'application/xml') };
}

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

/** What the document's consultation says of a pending event: registered, never received (send the same bytes), or still open. */
export type EstadoDoEventoPendente =
  | { tipo: 'registrado'; protocolo: ProtocoloEvento }
  | { tipo: 'reenviar' }
  | { tipo: 'pendente'; motivo: string };

export function estadoDoEventoPendente(r: RetornoConsulta, eventKey: string): EstadoDoEventoPendente {
  if (r.tipo === 'encontrado') {
    const protocolo = r.eventos.find((e) => e.idEvento === eventKey);
    if (protocolo) return { tipo: 'registrado', protocolo };
    if (!r.eventosEmProcessamento.includes(eventKey)) return { tipo: 'reenviar' };
    return { tipo: 'pendente', motivo: 'the event is still in processing' };
  }
  return { tipo: 'pendente', motivo: r.tipo === 'sem_resposta' ? 'the authority did not answer the query' : `${r.cStat} ${r.xMotivo}` };
}
