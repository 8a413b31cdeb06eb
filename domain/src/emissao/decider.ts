/**
 * What CT-e (model 57) and MDF-e (model 58) share as issued fiscal documents: an issue is requested, the emission
 * processor records the signed XML once (every later attempt sends the same bytes), then the authority's verdict or
 * its silence. Each document's decider keeps its own commands and events and decides its steps through these.
 */

/** The part of a document's state its issue drives. */
export interface EstadoDaEmissao {
  situacao: string | null;
  /** The signed XML being issued, kept through retries until a verdict. */
  emissao: unknown;
}

/**
 * A step the emission processor learned, as the one event it records: only while the document is in processing (a
 * redelivered or late step records nothing), and the signed XML only once.
 */
export function passoDaEmissao<E>(state: EstadoDaEmissao, evento: E, { xmlAssinado }: { xmlAssinado: boolean }): E[] {
  if (state.situacao !== 'em_processamento') return [];
  if (xmlAssinado && state.emissao) return [];
  return [evento];
}

/** What an issue request changes in the state: in processing, no signed XML yet (a re-issue signs a new one). */
export const EMISSAO_SOLICITADA = { situacao: 'em_processamento', emissao: null } as const;

/** A rejected document may be issued again: it keeps its number, and the next XML gets a new key (new random code). */
export const EMISSAO_REJEITADA = { situacao: 'rejeitado', chave: null, emissao: null } as const;

/** The checkpoint from a signed XML event. */
export const emissaoAssinada = (d: { chave: string; numero: number; serie: number; sha256: string }) => ({
  chave: d.chave,
  numero: d.numero,
  serie: d.serie,
  sha256: d.sha256,
});
